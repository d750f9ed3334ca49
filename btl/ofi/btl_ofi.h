/*
 * btl_ofi.h - the libfabric byte-transfer layer: what the rest of comm may see of it.
 *
 * Layer: btl.  btl/ofi is the only code in comm that includes libfabric headers; this header
 * speaks comm's terms only (the libfabric-typed internals are in btl_ofi_module.h).
 * Must not: open endpoints or touch the network to answer an inquiry: listing providers reads
 * what libfabric reports and opens nothing.
 *
 * The parsing of COMM_BACKEND and COMM_DEVICE_ALLOWLIST below is pure (no libfabric, no
 * environment) so that unit tests can drive it.
 */
#ifndef COMM_BTL_OFI_H
#define COMM_BTL_OFI_H

#include <stdbool.h>
#include <stddef.h>

#include "base/config_table.h"
#include "btl/btl.h"

/* The settings of the ofi btl, for the settings registry. */
extern const struct comm_setting_table comm_btl_ofi_settings;

/* Called once per provider/fabric/domain triple that libfabric reports. */
typedef void (*comm_btl_ofi_provider_fn)(void *ctx, const char *provider, const char *fabric,
                                         const char *domain, const char *endpoint_type);

/*
 * Lists the reliable-datagram providers libfabric can offer on the devices comm may use
 * outside a job: COMM_DEVICE_ALLOWLIST, else COMM_NET_INTERFACES, else the loopback interface
 * (so that an inquiry never looks at the machine's real interfaces).  Returns COMM_OK, or
 * COMM_ERR_NOT_FOUND when libfabric offers none (not an error for an inquiry).
 */
int comm_btl_ofi_list_providers(comm_btl_ofi_provider_fn fn, void *ctx);

/* libfabric's version as "1.17" (loading it), or "not loaded: " and why. */
void comm_btl_ofi_version(char *out, size_t len);

/* The file libfabric was loaded from, or "" while it is not loaded (btl_ofi_lib.c). */
const char *comm_btl_ofi_library_file(void);

/* ---- pure helpers (btl_ofi_config.c) --------------------------------------------------- */

enum { COMM_BTL_OFI_MAX_CANDIDATES = 4, COMM_BTL_OFI_MAX_DEVICES = 16, COMM_BTL_OFI_NAME = 64 };

/*
 * The libfabric provider strings to try, best first, for a COMM_BACKEND value: "auto" gives
 * verbs;ofi_rxm, net, tcp;ofi_rxm, tcp; "verbs" and "rdma" give verbs;ofi_rxm; "tcp" gives
 * net, tcp;ofi_rxm; anything else is passed to libfabric as it is.  Returns how many were written
 * (at most COMM_BTL_OFI_MAX_CANDIDATES); the strings are static or point into BACKEND.
 */
size_t comm_btl_ofi_backend_candidates(const char *backend,
                                       const char *out[COMM_BTL_OFI_MAX_CANDIDATES]);

/* Which devices the btl may open an endpoint on. */
enum comm_btl_ofi_scope {
    COMM_BTL_OFI_ONLY,        /* only the named devices */
    COMM_BTL_OFI_NONLOOPBACK, /* every device but loopback */
};

/* A parsed device list: names to use or, after ^, names to leave out. */
struct comm_btl_ofi_names {
    bool exclude;
    size_t count;
    char names[COMM_BTL_OFI_MAX_DEVICES][COMM_BTL_OFI_NAME];
};

struct comm_btl_ofi_devices {
    enum comm_btl_ofi_scope scope;
    struct comm_btl_ofi_names use;  /* ONLY: the devices */
    struct comm_btl_ofi_names skip; /* left out of the set whatever its scope */
    const char *source;             /* where the set comes from, for messages */
};

/*
 * Parses a comma list of device names ("lo", "eth1,mlx5_0"), or "^" and such a list for the
 * devices to leave out (when ALLOW_EXCLUDE).  Returns COMM_OK, or COMM_ERR_BAD_PARAM after
 * writing what was expected to expected_out (empty name, a second ^, too many or too long
 * names).  Never logs.
 */
int comm_btl_ofi_parse_devices(const char *text, bool allow_exclude, struct comm_btl_ofi_names *out,
                               char *expected_out, size_t len);

/*
 * The devices a rank may use.  The job's set is the interfaces comm-run selected
 * (NET_INTERFACES, when not NULL), else the loopback interface when every rank of the job is
 * on this host, else every non-loopback device.  COMM_DEVICE_ALLOWLIST (ALLOWLIST, when not
 * NULL) replaces it with the devices it names, or with "^names" leaves those out of it.
 * Returns COMM_OK or COMM_ERR_BAD_PARAM (expected_out says why).
 */
int comm_btl_ofi_device_policy(const char *allowlist, const char *net_interfaces, bool all_local,
                               struct comm_btl_ofi_devices *out, char *expected_out, size_t len);

/*
 * Whether a device is in the set.  A device may be known by several names (the libfabric
 * domain and the network interface that carries its address): it matches when any of the
 * NNAMES names does; LOOPBACK says whether it is a loopback device.
 */
bool comm_btl_ofi_devices_allow(const struct comm_btl_ofi_devices *set, const char *const *names,
                                size_t nnames, bool loopback);

/*
 * The devices to open a rail on (btl_ofi_rail.c), into NAMES_OUT: TOPO_RAILS (the topology
 * file's Nics= for this host) when given, else ALLOWLIST (COMM_DEVICE_ALLOWLIST) when it names
 * several devices to use, else NET (the job's interfaces) when it names several and ALLOWLIST
 * is not set.  A count of 0 means no rails: one endpoint, chosen as without them.  SOURCE_OUT
 * says where the names came from.  COMM_ERR_BAD_PARAM for a malformed TOPO_RAILS, with what was
 * expected in expected_out.  Never logs.
 */
int comm_btl_ofi_rail_names(const char *topo_rails, const char *allowlist, const char *net,
                            struct comm_btl_ofi_names *names_out, const char **source_out,
                            char *expected_out, size_t len);
enum { COMM_BTL_OFI_PLAN_MAX = 8 }; /* rails of a plan, at most */

/* A rail to open: a provider on a device, for the fabrics it serves. */
struct comm_btl_ofi_rail_spec {
    char provider[COMM_BTL_OFI_NAME]; /* "": COMM_BACKEND's choice */
    char name[COMM_BTL_OFI_NAME];     /* the device; "": the job's devices, as without rails */
    uint32_t fabrics;                 /* bit F: it serves fabric F */
};

/*
 * The rails for FABRICS (NF of them, lowest level first, as comm_btl_self_info has them): one
 * per device of each fabric's Nics= (one on the job's devices when it gives none) with the
 * fabric's provider, each (provider, device) once with every fabric it serves; the highest
 * level's first, so the home rail is on the fabric that reaches the most peers.  Into OUT (at
 * most COMM_BTL_OFI_PLAN_MAX), N_OUT of them.  COMM_ERR_BAD_PARAM for a malformed Nics= or too
 * many rails, with what was expected in expected_out and the fabric at fault in *bad_out.
 * Never logs.
 */
int comm_btl_ofi_rail_plan(const struct comm_btl_fabric *fabrics, size_t nf,
                           struct comm_btl_ofi_rail_spec *out, size_t *n_out, size_t *bad_out,
                           char *expected_out, size_t len);

/* The set as text for messages: "lo", "every non-loopback device but eth0". */
void comm_btl_ofi_devices_describe(const struct comm_btl_ofi_devices *set, char *out, size_t len);

/*
 * Receive buffers a rank keeps per network peer beside its CREDITS (at least 2), for the
 * peer's credit messages, which spend no credit: as many as the peer can have on the way at
 * once.  A credit message carries back at least CREDITS / 2 credits and those on the way never
 * add up to more than CREDITS, so that is CREDITS / (CREDITS / 2): 2, and 3 for 3 credits.
 */
long comm_btl_ofi_spares(long credits);

/* How large messages are read when COMM_OFI_READ_SIZE is 0: in pieces of the first size (the
 * second from a peer on another host), or whole up to the third, whichever delivers faster
 * (btl_ofi_tune.h).  The first size also bounds the tuned messages' classes. */
enum {
    BTL_OFI_READ_PIECE = 512 << 10,
    BTL_OFI_READ_PIECE_FAR = 128 << 10,
    BTL_OFI_READ_WHOLE = 4 << 20,
};

/*
 * How a written message leaves its sender.  Over the kernel's TCP (providers whose first name
 * is net, tcp or sockets) a message of more than one piece is written in pieces, each posted
 * once the one before it has landed (FI_DELIVERY_COMPLETE), the last with the completion data:
 * bbr held back flights larger than a piece and the message stalled partway.  On loopback one
 * write of 1 MiB (17 segments of 64 KiB, against a window of 12-16) took 168-205 us one way
 * and two of 512 KiB 98-103 (Open MPI 97-102).  Between two simulated hosts 512 KiB pieces took
 * 174-177 us for 1 MiB on good runs and 329-474 on others, where 256 KiB pieces took 179-229
 * on both (reads of 128 KiB pieces 245-302).  Other providers (RDMA hardware) write each
 * message whole: a piece would cost a round trip.
 */
enum {
    BTL_OFI_WRITE_PIECE = 512 << 10,
    BTL_OFI_WRITE_PIECE_FAR = 256 << 10,
};

/*
 * The bytes of one piece of a written message for PROVIDER (libfabric's name, such as "net" or
 * "verbs;ofi_rxm"), to a peer on another host when FAR: SETTING (COMM_OFI_WRITE_PIECE) when
 * positive, else BTL_OFI_WRITE_PIECE (BTL_OFI_WRITE_PIECE_FAR) over the kernel's TCP and 0
 * (whole) otherwise.
 */
size_t comm_btl_ofi_write_piece(const char *provider, long setting, bool far);

/*
 * Bytes of the next write of a LEN-byte message of which DONE bytes have landed, in pieces of
 * PIECE bytes (0: whole): the rest when it fits one piece, which is then the last.
 */
size_t comm_btl_ofi_write_next(size_t len, size_t done, size_t piece);

/*
 * How large and how many the receive buffers a rank posts for its network peers are.  Any
 * buffer may take any peer's fragment, so every rank sizes them alike, from the job's size.
 * Each peer gets CREDITS + SPARES buffers of FRAG bytes (SPARES from comm_btl_ofi_spares).  When
 * PEERS times that exceeds BUDGET, what the user did not set shrinks, in this order: fragments down
 * to 16 KiB, credits down to 4, fragments down to 4 KiB, credits down to 2; never below what the
 * user set or the defaults.  The eager limit follows the fragment (less ROOM, the headers' bytes)
 * unless it was set; a fragment never shrinks below a set limit and its ROOM.
 */
struct comm_btl_ofi_sizing {
    long frag, eager, credits;             /* in: configured; out: to use */
    bool frag_set, eager_set, credits_set; /* which of them the user set */
    long spares;                           /* out: buffers per peer beside the credits */
    long room;                             /* bytes of a fragment that are not payload */
    size_t memory;                         /* out: bytes of receive buffers for PEERS peers */
    bool over;                             /* out: MEMORY exceeds the budget all the same */
};

enum {
    COMM_BTL_OFI_FRAG_MID = 16384, /* fragments shrink this far before credits do */
    COMM_BTL_OFI_CREDITS_MID = 4,
    COMM_BTL_OFI_FRAG_MIN = 4096,
    COMM_BTL_OFI_CREDITS_MIN = 2,
};

void comm_btl_ofi_size_receives(struct comm_btl_ofi_sizing *s, long peers, size_t budget);

#endif
