/*
 * btl_ofi_select.c - which libfabric provider entries comm may use: the capabilities and modes
 * it asks for, and the devices it is allowed to touch.
 *
 * Layer: btl/ofi.  Must not: open anything; it only asks libfabric what it offers, and keeps
 * libfabric away from interfaces outside the allowed set before libfabric first looks.
 */
#include "config.h"

#include "btl/ofi/btl_ofi_module.h"
#include "base/error.h"

#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* The tcp-family providers and the variable each reads to pick its interface. */
static const char *const select_iface_vars[] = {"FI_TCP_IFACE", "FI_NET_IFACE", "FI_SOCKETS_IFACE",
                                                "FI_UDP_IFACE"};

void comm_btl_ofi_restrict_env(const struct comm_btl_ofi_devices *devices)
{
    const char *name = devices->use.names[0];

    if (devices->scope != COMM_BTL_OFI_ONLY || devices->use.count != 1 ||
        if_nametoindex(name) == 0) {
        return; /* several devices, or a domain name: entries are filtered one by one */
    }
    for (size_t i = 0; i < sizeof(select_iface_vars) / sizeof(select_iface_vars[0]); i++) {
        if (comm_config_env(select_iface_vars[i]) == NULL) {
            setenv(select_iface_vars[i], name, 0);
        }
    }
}

static bool select_same_addr(const struct sockaddr *a, const struct sockaddr *b)
{
    if (a->sa_family != b->sa_family) {
        return false;
    }
    if (a->sa_family == AF_INET) {
        return ((const struct sockaddr_in *)(const void *)a)->sin_addr.s_addr ==
               ((const struct sockaddr_in *)(const void *)b)->sin_addr.s_addr;
    }
    if (a->sa_family == AF_INET6) {
        return memcmp(&((const struct sockaddr_in6 *)(const void *)a)->sin6_addr,
                      &((const struct sockaddr_in6 *)(const void *)b)->sin6_addr,
                      sizeof(struct in6_addr)) == 0;
    }
    return false;
}

/* The interface whose address is the entry's source address; loopback_out from its flags. */
static void select_interface(const struct fi_info *info, char *out, size_t len, bool *loopback_out)
{
    const struct sockaddr *sa = info->src_addr;
    struct ifaddrs *list, *i;

    out[0] = '\0';
    *loopback_out = info->domain_attr->name != NULL && strcmp(info->domain_attr->name, "lo") == 0;
    if (sa == NULL || info->src_addrlen < sizeof(struct sockaddr) ||
        (info->addr_format != FI_SOCKADDR && info->addr_format != FI_SOCKADDR_IN &&
         info->addr_format != FI_SOCKADDR_IN6) ||
        getifaddrs(&list) != 0) {
        return;
    }
    for (i = list; i != NULL; i = i->ifa_next) {
        if (i->ifa_addr != NULL && select_same_addr(i->ifa_addr, sa)) {
            snprintf(out, len, "%s", i->ifa_name);
            *loopback_out = (i->ifa_flags & IFF_LOOPBACK) != 0;
            break;
        }
    }
    freeifaddrs(list);
}

void comm_btl_ofi_interface_of(const struct fi_info *info, char *out, size_t len)
{
    bool loopback;

    select_interface(info, out, len, &loopback);
}

/* Whether the domains must take calls from several threads (progress threads). */
static bool select_thread_safe;

void comm_btl_ofi_set_thread_safe(bool on)
{
    select_thread_safe = on;
}

static struct fi_info *select_hints(const char *provider, enum comm_btl_ofi_rma rma)
{
    struct fi_info *hints = comm_btl_ofi_fi_dupinfo(NULL);

    if (hints == NULL) {
        return NULL;
    }
    hints->ep_attr->type = FI_EP_RDM;
    hints->caps = FI_MSG;
    if (rma != COMM_BTL_OFI_RMA_NONE) {
        hints->caps |= FI_RMA | FI_READ | FI_REMOTE_READ;
    }
    if (rma == COMM_BTL_OFI_RMA_WRITE) {
        hints->caps |= FI_WRITE | FI_REMOTE_WRITE;
        hints->domain_attr->cq_data_size = 4; /* the receive's token */
    }
    hints->mode = FI_CONTEXT | FI_CONTEXT2;
    hints->domain_attr->mr_mode =
        FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT;
    hints->domain_attr->threading = select_thread_safe ? FI_THREAD_SAFE : FI_THREAD_DOMAIN;
    hints->tx_attr->msg_order = FI_ORDER_SAS;
    hints->rx_attr->msg_order = FI_ORDER_SAS;
    if (provider != NULL) {
        hints->fabric_attr->prov_name = strdup(provider);
        if (hints->fabric_attr->prov_name == NULL) {
            comm_btl_ofi_fi_freeinfo(hints);
            return NULL;
        }
    }
    return hints;
}

int comm_btl_ofi_getinfo(const char *provider, const struct comm_btl_ofi_devices *devices,
                         enum comm_btl_ofi_rma rma, struct fi_info **list_out, char *why_out,
                         size_t len)
{
    struct fi_info *hints;
    struct fi_info *all = NULL, *kept = NULL, **tail = &kept;
    char refused[256] = "";
    int rc;

    hints = select_hints(provider, rma);
    if (hints == NULL) {
        snprintf(why_out, len, "out of memory");
        return COMM_ERR_NOMEM;
    }
    rc = comm_btl_ofi_fi_getinfo(hints, &all);
    comm_btl_ofi_fi_freeinfo(hints);
    comm_btl_ofi_restore_signals(); /* providers may have loaded more */
    if (rc != 0 || all == NULL) {
        snprintf(why_out, len,
                 "libfabric offers no such reliable-datagram provider with the "
                 "needed capabilities (%s)",
                 rc != 0 ? comm_btl_ofi_fi_strerror(-rc) : "empty list");
        return COMM_ERR_NOT_FOUND;
    }
    for (struct fi_info *i = all; i != NULL; i = i->next) {
        char iface[IF_NAMESIZE + 1];
        const char *names[2];
        bool loopback;

        select_interface(i, iface, sizeof(iface), &loopback);
        names[0] = i->domain_attr->name;
        names[1] = iface[0] != '\0' ? iface : NULL;
        if (!comm_btl_ofi_devices_allow(devices, names, 2, loopback)) {
            const char *shown = iface[0] != '\0' ? iface : i->domain_attr->name;
            size_t used = strlen(refused);

            if (shown != NULL && strstr(refused, shown) == NULL) {
                snprintf(refused + used, sizeof(refused) - used, "%s%s", used ? ", " : "", shown);
            }
            continue;
        }
        *tail = comm_btl_ofi_fi_dupinfo(i);
        if (*tail == NULL) {
            break;
        }
        tail = &(*tail)->next;
    }
    comm_btl_ofi_fi_freeinfo(all);
    if (kept == NULL) {
        char allowed[256];

        comm_btl_ofi_devices_describe(devices, allowed, sizeof(allowed));
        snprintf(why_out, len, "its devices (%s) are outside the allowed set (%s, from %s)",
                 refused[0] ? refused : "none", allowed, devices->source);
        return COMM_ERR_NOT_FOUND;
    }
    *list_out = kept;
    return COMM_OK;
}
