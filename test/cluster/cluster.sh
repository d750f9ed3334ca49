# cluster.sh - a simulated cluster on one machine for comm's cluster tests: a bash library,
# sourced (needs root, iproute2 and the tbf qdisc).  It must not touch the machine's own
# network namespace: every interface, bridge, address and process it makes lives in namespaces
# it created, and cluster_down removes exactly those.
#
# The cluster (cluster_up HOSTS RACKS; here 4 hosts in 2 racks, ID a random 6-hex-digit tag):
#
#   fabric namespace clID-fabric                    host namespaces clID-h0 ... clID-h3
#                  clIDspine (bridge)                 lo, and clIDeth (one veth end), with
#          clIDup0s /        \ clIDup1s               CLUSTER_NET.<rack>.<host+1>/16
#   tbf both ways  |          |  tbf both ways
#          clIDup0r \        / clIDup1r             host 0: 10.77.0.1   rack 0
#          clIDrack0          clIDrack1  (bridges)  host 1: 10.77.0.2   rack 0
#          clIDh0 clIDh1      clIDh2 clIDh3         host 2: 10.77.1.3   rack 1
#            |      |           |      |            host 3: 10.77.1.4   rack 1
#         (the veth peers, clIDeth in each host namespace)
#
#   All hosts share one /16 (no routing): the hosts of a rack meet on their rack's bridge; racks
#   meet on the spine bridge through their uplink, a veth pair shaped in both directions with
#   tbf at CLUSTER_UPLINK_RATE (there is no netem here: a slow link is a low rate, not a delay).
#   One rack has no spine and no uplink.  IPv6 is off in every namespace, so the only traffic
#   on the fabric is the tests' own.  Every host's interface has the same name, clIDeth, so one
#   setting can name it for all ranks (FI_TCP_IFACE, for instance).
#
# Pods, a third tier (cluster_up HOSTS RACKS PODS, 1 < PODS <= RACKS; here 8 hosts, 4 racks and
# 2 pods): racks are divided among pods as hosts are among racks (rack r in pod r*PODS/RACKS).
# Each pod is a bridge clIDpodP in the fabric namespace; its racks' uplinks end on it instead of
# on the spine, and it has an uplink of its own to the spine, clIDpuPr (on the pod bridge) and
# clIDpuPs (on the spine), shaped both ways with tbf at CLUSTER_UPLINK_RATE too:
#
#                                  clIDspine
#                      clIDpu0s /             \ clIDpu1s
#          tbf both ways        |             |
#                      clIDpu0r \             / clIDpu1r
#                         clIDpod0             clIDpod1
#              clIDup0s /         \ clIDup1s   (racks 2 and 3 alike)
#   tbf both ways      |           |
#              clIDup0r \         / clIDup1r
#                 clIDrack0    clIDrack1
#                 clIDh0 clIDh1 clIDh2 clIDh3
#
#   Every uplink (a rack's, a pod's) is shaped, the addresses are the same as without pods (one
#   /16, no routing), and a path across pods crosses four uplinks.  PODS 1 (the default) is no
#   pod tier: the racks' uplinks end on the spine, as drawn first.
#
# Rails (CLUSTER_RAILS=400mbit,200mbit): besides that network, every host gets one interface per
# rail, on a network of its own, shaped both ways with tbf at the rail's rate.  Rail K is the
# interface clIDrK in every host (the same name everywhere, as clIDeth), with the address of the
# host's clIDeth but K + 1 added to the second octet (10.78.0.1 for host 0's rail 0; a /16, a
# rack-only rail a /24 per rack, so that each rack's is a network of its own); in the
# fabric namespace its other end clIDhNrK is on the rail's bridge clIDrlK, which joins every
# host.  A rate followed by /rack (400mbit/rack) makes a rack-only rail: one bridge per rack,
# clIDrlKkR, and no link between racks, as a fabric inside a rack beside the spine network.
#
#          clIDrl0 (bridge)           clIDrl1 (bridge)
#       clIDh0r0 ... clIDh3r0      clIDh0r1 ... clIDh3r1     tbf on both ends of each
#          |           |              |           |
#       clIDr0 in h0 ... h3        clIDr1 in h0 ... h3
#
# Host names are the host namespaces' names: what comm-run's --host and "ip netns exec" take.
#
# Functions (each returns non-zero after saying on stderr what failed):
#   cluster_up HOSTS RACKS [PODS]  builds the cluster (PODS default 1) and sets CLUSTER_DIR,
#                           CLUSTER_ID, CLUSTER_FABRIC, CLUSTER_IFACE, CLUSTER_RACKS,
#                           CLUSTER_PODS (the counts) and the arrays CLUSTER_HOSTS,
#                           CLUSTER_ADDRS, CLUSTER_RACK and CLUSTER_POD (by host index).  It
#                           traps EXIT, INT, TERM and HUP in the calling shell to run
#                           cluster_down, so call it from the script's own shell, not from a
#                           subshell (clear the traps to keep it up).  The trap first calls the
#                           caller's function cluster_on_exit, if defined, to stop what the
#                           caller started outside the cluster.
#   cluster_down [DIR]      ends the processes still inside the run's namespaces (by pid),
#                           deletes the namespaces (and with them every veth, bridge and
#                           qdisc), removes the run directory, and checks nothing is left.
#   cluster_load DIR        sets the variables above from a run directory made earlier.
#   cluster_addr HOST       prints HOST's address.
#   cluster_hostlist SLOTS  prints "H0:SLOTS,H1:SLOTS,..." for comm-run --host.
#   cluster_rawtcp FROM TO ARGS...  runs examples/bench/rawtcp's server in TO and its client
#                           in FROM with ARGS; prints the client's output.  CLUSTER_RAWTCP names
#                           the program.
#   cluster_check           TCP between every pair of hosts; every uplink interface in the
#                           fabric namespace has a tbf root qdisc; then the uplink shaping: a
#                           stream across racks must be slower than one inside a rack and not
#                           faster than the uplink rate, and with pods, so must a stream across
#                           pods.  With rails, each rail: TCP between every pair of hosts it
#                           joins, and a stream between two of them at the rail's rate.
#   cluster_rail_addr HOST K    prints HOST's address on rail K.
#   cluster_rail HOST K rate RATE | down | up
#                           changes HOST's rail K while a job may run: shapes both ends of it
#                           at RATE, or takes its interface down, or brings it back up.
#   cluster_fault HOST down | up | rate RATE | rate off | reset [PORT] | cut HOST2 | uncut HOST2
#                 | stop RANK | cont RANK
#                           a fault on HOST while a job runs: its interface down or up; its
#                           link shaped to RATE both ways (or back to unshaped); every TCP
#                           connection it has to other hosts reset (ss -K; those on loopback,
#                           its ranks' to their PMIx server, stay), or all but those to remote
#                           port PORT (comm-run's, say); no route from it to HOST2 (or the route
#                           back); the rank RANK of a job on it stopped (SIGSTOP) or continued.
#
# Settings: CLUSTER_UPLINK_RATE (tc rate, default 200mbit), CLUSTER_NET (the first two octets,
# default 10.77), CLUSTER_TMP (where run directories go, default ${TMPDIR:-/tmp}),
# CLUSTER_RAILS (the rails' rates, comma separated, each a tc rate with /rack for a rack-only
# rail; default none).
#
# The run directory (CLUSTER_DIR) holds:
#   netns   each namespace of the run, one a line, written as soon as it exists
#   hosts   one line per host: NAME ADDRESS RACK INTERFACE POD
#   env     CLUSTER_* assignments, for cluster_load
#   topology.conf  the tree in Slurm's topology.conf format: switches rack0.., pod0.. (with
#           pods) and spine (with more than one rack), hosts by name, and LinkSpeed (the uplink
#           rate in Mbit/s, rounded, at least 1) on each switch that has an uplink; with rails,
#           a NodeName statement giving every host its rails (Nics=)
#   owner   the pid of the shell that built it
#   rails   with rails, one line per rail: K INTERFACE RATE SCOPE (all or rack)

# shellcheck shell=bash
: "${CLUSTER_UPLINK_RATE:=200mbit}"
: "${CLUSTER_NET:=10.77}"
: "${CLUSTER_RAILS:=}"

CLUSTER_DIR=""
CLUSTER_ID=""
CLUSTER_FABRIC=""
CLUSTER_IFACE=""
CLUSTER_RACKS=""
CLUSTER_PODS=""
CLUSTER_HOSTS=()
CLUSTER_ADDRS=()
CLUSTER_RACK=()
CLUSTER_POD=()
CLUSTER_RAIL_IFACES=()
CLUSTER_RAIL_RATES=()
CLUSTER_RAIL_SCOPES=()

_cluster_error() {
    echo "cluster: $*" >&2
}

# Runs a command; on failure says which one and what it printed.
_cluster_do() {
    local out
    if ! out=$("$@" 2>&1); then
        _cluster_error "failed: $*${out:+: $out}"
        return 1
    fi
}

# Bytes per second of a tc rate (200mbit, 1gbit, 500kbit), or nothing if not one.
_cluster_rate_bytes() {
    local r=$1
    [[ $r =~ ^([1-9][0-9]*)(kbit|mbit|gbit)$ ]] || return 1
    case ${BASH_REMATCH[2]} in
    kbit) echo $((BASH_REMATCH[1] * 1000 / 8)) ;;
    mbit) echo $((BASH_REMATCH[1] * 1000000 / 8)) ;;
    gbit) echo $((BASH_REMATCH[1] * 1000000000 / 8)) ;;
    esac
}

_cluster_on_exit() {
    local status=$?
    set +e
    trap - EXIT INT TERM HUP
    if declare -F cluster_on_exit >/dev/null; then
        cluster_on_exit
    fi
    cluster_down "$CLUSTER_DIR"
    exit "$status"
}

_cluster_on_signal() {
    _cluster_error "caught SIG$1: tearing the cluster down"
    case $1 in
    INT) exit 130 ;;
    HUP) exit 129 ;;
    *) exit 143 ;;
    esac
}

# Reads CLUSTER_RAILS into CLUSTER_RAIL_RATES and CLUSTER_RAIL_SCOPES (and checks that the
# rails' networks fit after CLUSTER_NET's second octet); says what is wrong otherwise.
_cluster_parse_rails() {
    local words=() w rate scope second
    CLUSTER_RAIL_RATES=()
    CLUSTER_RAIL_SCOPES=()
    [[ -z $CLUSTER_RAILS ]] && return 0
    IFS=, read -r -a words <<<"$CLUSTER_RAILS"
    for w in "${words[@]}"; do
        rate=${w%/rack}
        scope=all
        [[ $rate != "$w" ]] && scope=rack
        if ! _cluster_rate_bytes "$rate" >/dev/null; then
            _cluster_error "CLUSTER_RAILS '$CLUSTER_RAILS': '$w' is not a rate like 400mbit, 1gbit or 500kbit (with /rack for a rack-only rail)"
            return 1
        fi
        CLUSTER_RAIL_RATES+=("$rate")
        CLUSTER_RAIL_SCOPES+=("$scope")
    done
    if ((${#CLUSTER_RAIL_RATES[@]} == 0 || ${#CLUSTER_RAIL_RATES[@]} > 8)); then
        _cluster_error "CLUSTER_RAILS '$CLUSTER_RAILS' names ${#CLUSTER_RAIL_RATES[@]} rails (from 1 to 8)"
        return 1
    fi
    second=${CLUSTER_NET#*.}
    if ((second + ${#CLUSTER_RAIL_RATES[@]} > 255)); then
        _cluster_error "CLUSTER_NET '$CLUSTER_NET' leaves no room for ${#CLUSTER_RAIL_RATES[@]} rails' networks after it (its second octet plus the rails must stay under 256)"
        return 1
    fi
}

cluster_up() {
    local hosts=${1:-} racks=${2:-} pods=${3:-1} rate_bytes burst id dir n
    if [[ ! $hosts =~ ^[1-9][0-9]*$ || $hosts -gt 250 ]]; then
        _cluster_error "host count '$hosts' is not a number from 1 to 250 (usage: cluster_up HOSTS RACKS [PODS])"
        return 2
    fi
    if [[ ! $racks =~ ^[1-9][0-9]*$ || $racks -gt $hosts || $racks -gt 99 ]]; then
        _cluster_error "rack count '$racks' is not a number from 1 to the host count ($hosts) and 99 (usage: cluster_up HOSTS RACKS [PODS])"
        return 2
    fi
    if [[ $pods =~ ^[1-9][0-9]*$ && $pods -gt 1 && $racks == 1 ]]; then
        _cluster_error "pod count '$pods' needs more than one rack: pods divide the racks, and there is 1 (usage: cluster_up HOSTS RACKS [PODS])"
        return 2
    fi
    if [[ ! $pods =~ ^[1-9][0-9]*$ || $pods -gt $racks ]]; then
        _cluster_error "pod count '$pods' is not a number from 1 to the rack count ($racks) (usage: cluster_up HOSTS RACKS [PODS])"
        return 2
    fi
    if ! rate_bytes=$(_cluster_rate_bytes "$CLUSTER_UPLINK_RATE"); then
        _cluster_error "CLUSTER_UPLINK_RATE '$CLUSTER_UPLINK_RATE' is not a rate like 200mbit, 1gbit or 500kbit"
        return 2
    fi
    if [[ ! $CLUSTER_NET =~ ^(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])\.(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])$ ]]; then
        _cluster_error "CLUSTER_NET '$CLUSTER_NET' is not the first two octets of an address, like 10.77"
        return 2
    fi
    _cluster_parse_rails || return 2
    if [[ $(id -u) != 0 ]]; then
        _cluster_error "needs root (network namespaces, veths, bridges): run it as root"
        return 1
    fi
    if ! command -v ip >/dev/null || ! command -v tc >/dev/null; then
        _cluster_error "needs ip and tc: install iproute2 (apt-get install iproute2)"
        return 1
    fi
    if [[ -n $CLUSTER_DIR ]]; then
        _cluster_error "a cluster is already up in this shell ($CLUSTER_DIR): cluster_down first"
        return 1
    fi
    # A fresh tag: no namespace of that name may exist already.
    for n in 1 2 3 4 5 6 7 8; do
        id=$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')
        [[ ${#id} == 6 ]] || { _cluster_error "cannot read /dev/urandom"; return 1; }
        ip netns list | grep -q "^cl$id-" || break
        id=""
    done
    [[ -n $id ]] || { _cluster_error "no unused cluster tag found"; return 1; }
    dir=$(mktemp -d "${CLUSTER_TMP:-${TMPDIR:-/tmp}}/comm-cluster.$id.XXXXXX") ||
        { _cluster_error "cannot make a run directory in ${CLUSTER_TMP:-${TMPDIR:-/tmp}}"; return 1; }
    CLUSTER_DIR=$dir
    CLUSTER_ID=$id
    CLUSTER_FABRIC=cl$id-fabric
    CLUSTER_IFACE=cl${id}eth
    CLUSTER_RACKS=$racks
    CLUSTER_PODS=$pods
    CLUSTER_HOSTS=()
    CLUSTER_ADDRS=()
    CLUSTER_RACK=()
    CLUSTER_POD=()
    echo $$ >"$dir/owner"
    : >"$dir/netns"
    trap _cluster_on_exit EXIT
    trap '_cluster_on_signal INT' INT
    trap '_cluster_on_signal TERM' TERM
    trap '_cluster_on_signal HUP' HUP
    # tbf's bucket: 4 ms at the rate, and never less than a 64 KiB GSO packet.
    burst=$((rate_bytes / 250))
    ((burst < 131072)) && burst=131072
    if ! _cluster_build "$hosts" "$racks" "$pods" "$burst"; then
        _cluster_error "could not build the cluster; tearing down what was made"
        cluster_down "$CLUSTER_DIR"
        return 1
    fi
    {
        echo "CLUSTER_ID=$CLUSTER_ID"
        echo "CLUSTER_FABRIC=$CLUSTER_FABRIC"
        echo "CLUSTER_IFACE=$CLUSTER_IFACE"
        echo "CLUSTER_UPLINK_RATE=$CLUSTER_UPLINK_RATE"
        echo "CLUSTER_NET=$CLUSTER_NET"
        echo "CLUSTER_RACKS=$CLUSTER_RACKS"
        echo "CLUSTER_PODS=$CLUSTER_PODS"
        echo "CLUSTER_HOSTS=(${CLUSTER_HOSTS[*]})"
        echo "CLUSTER_ADDRS=(${CLUSTER_ADDRS[*]})"
        echo "CLUSTER_RACK=(${CLUSTER_RACK[*]})"
        echo "CLUSTER_POD=(${CLUSTER_POD[*]})"
        echo "CLUSTER_RAILS=$CLUSTER_RAILS"
        echo "CLUSTER_RAIL_IFACES=(${CLUSTER_RAIL_IFACES[*]})"
        echo "CLUSTER_RAIL_RATES=(${CLUSTER_RAIL_RATES[*]})"
        echo "CLUSTER_RAIL_SCOPES=(${CLUSTER_RAIL_SCOPES[*]})"
    } >"$dir/env"
    for n in "${!CLUSTER_RAIL_IFACES[@]}"; do
        echo "$n ${CLUSTER_RAIL_IFACES[n]} ${CLUSTER_RAIL_RATES[n]} ${CLUSTER_RAIL_SCOPES[n]}"
    done >"$dir/rails"
    for n in "${!CLUSTER_HOSTS[@]}"; do
        echo "${CLUSTER_HOSTS[n]} ${CLUSTER_ADDRS[n]} ${CLUSTER_RACK[n]} $CLUSTER_IFACE ${CLUSTER_POD[n]}"
    done >"$dir/hosts"
    _cluster_topology "$rate_bytes" >"$dir/topology.conf"
}

# "N NAMEs", or "1 NAME".
_cluster_count() {
    if (($1 == 1)); then echo "1 $2"; else echo "$1 $2s"; fi
}

# A Slurm hostlist of PREFIX with the numbers FIRST to LAST: PREFIX[FIRST-LAST], or PREFIXFIRST.
_cluster_range() {
    if (($2 == $3)); then echo "$1$2"; else echo "$1[$2-$3]"; fi
}

# Prints the built tree in Slurm's topology.conf format; RATE_BYTES is the uplink rate in bytes
# per second.  Hosts of a rack, and racks of a pod, are consecutive.
_cluster_topology() {
    local mbit=$((($1 * 8 + 500000) / 1000000)) speed="" r p n first last
    ((mbit < 1)) && mbit=1
    ((CLUSTER_RACKS > 1)) && speed=" LinkSpeed=$mbit"
    echo "# written by cluster_up: $(_cluster_count ${#CLUSTER_HOSTS[@]} host)," \
        "$(_cluster_count "$CLUSTER_RACKS" rack), $(_cluster_count "$CLUSTER_PODS" pod)"
    for ((r = 0; r < CLUSTER_RACKS; r++)); do
        first="" last=""
        for n in "${!CLUSTER_HOSTS[@]}"; do
            [[ ${CLUSTER_RACK[n]} == "$r" ]] || continue
            [[ -n $first ]] || first=$n
            last=$n
        done
        echo "SwitchName=rack$r Nodes=$(_cluster_range "cl$CLUSTER_ID-h" "$first" "$last")$speed"
    done
    if ((CLUSTER_PODS > 1)); then
        for ((p = 0; p < CLUSTER_PODS; p++)); do
            first="" last=""
            for ((r = 0; r < CLUSTER_RACKS; r++)); do
                ((r * CLUSTER_PODS / CLUSTER_RACKS == p)) || continue
                [[ -n $first ]] || first=$r
                last=$r
            done
            echo "SwitchName=pod$p Switches=$(_cluster_range rack "$first" "$last")$speed"
        done
        echo "SwitchName=spine Switches=$(_cluster_range pod 0 $((CLUSTER_PODS - 1)))"
    elif ((CLUSTER_RACKS > 1)); then
        echo "SwitchName=spine Switches=$(_cluster_range rack 0 $((CLUSTER_RACKS - 1)))"
    fi
    if ((${#CLUSTER_RAIL_IFACES[@]} > 0)); then
        echo "NodeName=$(_cluster_range "cl$CLUSTER_ID-h" 0 $((${#CLUSTER_HOSTS[@]} - 1)))" \
            "Nics=$(IFS=,; echo "${CLUSTER_RAIL_IFACES[*]}")"
    fi
}

# Makes a namespace and records it at once, so cluster_down finds it whatever happens next.
_cluster_netns_add() {
    _cluster_do ip netns add "$1" || return 1
    echo "$1" >>"$CLUSTER_DIR/netns"
    # No IPv6 (router solicitations, DAD) on the fabric: only the tests' traffic crosses it.
    _cluster_do ip netns exec "$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
        net.ipv6.conf.default.disable_ipv6=1 &&
        _cluster_do ip -n "$1" link set lo up
}

# A bridge in the fabric namespace.
_cluster_bridge() {
    _cluster_do ip -n "$CLUSTER_FABRIC" link add "$1" type bridge stp_state 0 &&
        _cluster_do ip -n "$CLUSTER_FABRIC" link set "$1" up
}

# An uplink: the veth pair NAMEr (on bridge LOWER) and NAMEs (on bridge UPPER), shaped with
# tbf both ways.
_cluster_uplink() {
    local up=$1 lower=$2 upper=$3 burst=$4 fab=$CLUSTER_FABRIC end
    _cluster_do ip -n "$fab" link add "${up}r" type veth peer name "${up}s" &&
        _cluster_do ip -n "$fab" link set "${up}r" master "$lower" up &&
        _cluster_do ip -n "$fab" link set "${up}s" master "$upper" up || return 1
    # tbf shapes what leaves an interface: the lower end limits lower-to-upper (rack to spine
    # or pod, pod to spine), the upper end the other way.
    for end in r s; do
        _cluster_do tc -n "$fab" qdisc add dev "$up$end" root tbf \
            rate "$CLUSTER_UPLINK_RATE" burst "$burst" latency 50ms || return 1
    done
}

_cluster_build() {
    local hosts=$1 racks=$2 pods=$3 burst=$4 id=$CLUSTER_ID fab=$CLUSTER_FABRIC n r p ns addr
    _cluster_netns_add "$fab" || return 1
    for ((r = 0; r < racks; r++)); do
        _cluster_bridge "cl${id}rack$r" || return 1
    done
    if ((racks > 1)); then
        _cluster_bridge "cl${id}spine" || return 1
    fi
    if ((pods > 1)); then
        for ((p = 0; p < pods; p++)); do
            _cluster_bridge "cl${id}pod$p" &&
                _cluster_uplink "cl${id}pu$p" "cl${id}pod$p" "cl${id}spine" "$burst" || return 1
        done
        for ((r = 0; r < racks; r++)); do
            _cluster_uplink "cl${id}up$r" "cl${id}rack$r" "cl${id}pod$((r * pods / racks))" \
                "$burst" || return 1
        done
    elif ((racks > 1)); then
        for ((r = 0; r < racks; r++)); do
            _cluster_uplink "cl${id}up$r" "cl${id}rack$r" "cl${id}spine" "$burst" || return 1
        done
    fi
    for ((n = 0; n < hosts; n++)); do
        r=$((n * racks / hosts))
        ns=cl$id-h$n
        addr=$CLUSTER_NET.$r.$((n + 1))
        _cluster_netns_add "$ns" || return 1
        # Both ends are made inside namespaces: the host's end goes straight into its own.
        _cluster_do ip -n "$fab" link add "cl${id}h$n" type veth peer name "$CLUSTER_IFACE" \
            netns "$ns" &&
            _cluster_do ip -n "$fab" link set "cl${id}h$n" master "cl${id}rack$r" up &&
            _cluster_do ip -n "$ns" addr add "$addr/16" dev "$CLUSTER_IFACE" &&
            _cluster_do ip -n "$ns" link set "$CLUSTER_IFACE" up || return 1
        CLUSTER_HOSTS+=("$ns")
        CLUSTER_ADDRS+=("$addr")
        CLUSTER_RACK+=("$r")
        CLUSTER_POD+=("$((r * pods / racks))")
    done
    _cluster_build_rails "$racks"
}

# The tbf of a rail's interface: a bucket of 4 ms at its rate, at least a 64 KiB GSO packet.
_cluster_rail_burst() {
    local bytes burst
    bytes=$(_cluster_rate_bytes "$1") || return 1
    burst=$((bytes / 250))
    ((burst < 131072)) && burst=131072
    echo "$burst"
}

# Shapes (ACTION add or change) both ends of host N's rail K at RATE.
_cluster_rail_shape() {
    local action=$1 n=$2 k=$3 rate=$4 id=$CLUSTER_ID burst
    burst=$(_cluster_rail_burst "$rate") || return 1
    _cluster_do tc -n "cl$id-h$n" qdisc "$action" dev "cl${id}r$k" root tbf rate "$rate" \
        burst "$burst" latency 50ms &&
        _cluster_do tc -n "$CLUSTER_FABRIC" qdisc "$action" dev "cl${id}h${n}r$k" root tbf \
            rate "$rate" burst "$burst" latency 50ms
}

_cluster_build_rails() {
    local racks=$1 id=$CLUSTER_ID fab=$CLUSTER_FABRIC k n r bridge prefix first=${CLUSTER_NET%%.*}
    local second=${CLUSTER_NET#*.}
    CLUSTER_RAIL_IFACES=()
    for k in "${!CLUSTER_RAIL_RATES[@]}"; do
        if [[ ${CLUSTER_RAIL_SCOPES[k]} == all ]]; then
            _cluster_bridge "cl${id}rl$k" || return 1
        else
            for ((r = 0; r < racks; r++)); do
                _cluster_bridge "cl${id}rl${k}k$r" || return 1
            done
        fi
        prefix=16
        [[ ${CLUSTER_RAIL_SCOPES[k]} == rack ]] && prefix=24
        for n in "${!CLUSTER_HOSTS[@]}"; do
            r=${CLUSTER_RACK[n]}
            bridge=cl${id}rl$k
            [[ ${CLUSTER_RAIL_SCOPES[k]} == rack ]] && bridge=cl${id}rl${k}k$r
            _cluster_do ip -n "$fab" link add "cl${id}h${n}r$k" type veth peer name \
                "cl${id}r$k" netns "cl$id-h$n" &&
                _cluster_do ip -n "$fab" link set "cl${id}h${n}r$k" master "$bridge" up &&
                _cluster_do ip -n "cl$id-h$n" addr add \
                    "$first.$((second + 1 + k)).$r.$((n + 1))/$prefix" dev "cl${id}r$k" &&
                _cluster_do ip -n "cl$id-h$n" link set "cl${id}r$k" up &&
                _cluster_rail_shape add "$n" "$k" "${CLUSTER_RAIL_RATES[k]}" || return 1
        done
        CLUSTER_RAIL_IFACES+=("cl${id}r$k")
    done
}

cluster_load() {
    local dir=${1:-} n
    if [[ -z $dir || ! -f $dir/env || ! -f $dir/netns ]]; then
        _cluster_error "'$dir' is not a cluster run directory (no env or netns file in it)"
        return 1
    fi
    CLUSTER_RACKS="" CLUSTER_PODS="" CLUSTER_POD=()
    CLUSTER_RAILS="" CLUSTER_RAIL_IFACES=() CLUSTER_RAIL_RATES=() CLUSTER_RAIL_SCOPES=()
    # shellcheck disable=SC1091
    . "$dir/env" || return 1
    CLUSTER_DIR=$dir
    # A run directory from before pods: one pod, and the racks its hosts are in.
    if [[ -z $CLUSTER_PODS ]]; then
        CLUSTER_PODS=1 CLUSTER_RACKS=0
        for n in "${!CLUSTER_HOSTS[@]}"; do
            CLUSTER_POD[n]=0
            ((CLUSTER_RACK[n] < CLUSTER_RACKS)) || CLUSTER_RACKS=$((CLUSTER_RACK[n] + 1))
        done
    fi
}

cluster_down() {
    local dir=${1:-$CLUSTER_DIR} ns pids more left="" tries names
    [[ -n $dir ]] || return 0
    if [[ ! -f $dir/netns ]]; then
        [[ -d $dir ]] && _cluster_error "'$dir' is not a cluster run directory (no netns file)"
        [[ $dir == "$CLUSTER_DIR" ]] && CLUSTER_DIR=""
        [[ -d $dir ]] && return 1
        return 0
    fi
    # Only names of the form this library makes, in case the file was edited.
    names=$(grep -E '^cl[0-9a-f]{6}-(fabric|h[0-9]+)$' "$dir/netns" | tac)
    # Whatever still runs inside the run's namespaces was started there by the run.
    for tries in 1 2 3 4 5 6 7 8 9 10; do
        pids=()
        for ns in $names; do
            [[ -e /run/netns/$ns ]] || continue
            mapfile -t more < <(ip netns pids "$ns" 2>/dev/null)
            pids+=("${more[@]}")
        done
        ((${#pids[@]} > 0)) || break
        if [[ $tries == 1 ]]; then
            _cluster_error "ending processes left in the cluster: ${pids[*]}"
            kill -TERM "${pids[@]}" 2>/dev/null
        else
            kill -KILL "${pids[@]}" 2>/dev/null
        fi
        sleep 0.2
    done
    for ns in $names; do
        if [[ -e /run/netns/$ns ]] && ! ip netns delete "$ns" 2>/dev/null; then
            _cluster_error "cannot delete namespace $ns"
        fi
    done
    for ns in $names; do
        ip netns list | grep -qE "^$ns( |$)" && left="$left $ns"
    done
    if [[ -n $left ]]; then
        _cluster_error "left behind:$left (run directory $dir kept)"
        return 1
    fi
    rm -rf "$dir"
    if [[ $dir == "$CLUSTER_DIR" ]]; then
        CLUSTER_DIR=""
        CLUSTER_RACKS=""
        CLUSTER_PODS=""
        CLUSTER_HOSTS=()
        CLUSTER_ADDRS=()
        CLUSTER_RACK=()
        CLUSTER_POD=()
        CLUSTER_RAIL_IFACES=()
        CLUSTER_RAIL_RATES=()
        CLUSTER_RAIL_SCOPES=()
    fi
}

cluster_addr() {
    local n
    for n in "${!CLUSTER_HOSTS[@]}"; do
        [[ ${CLUSTER_HOSTS[n]} == "$1" ]] && { echo "${CLUSTER_ADDRS[n]}"; return 0; }
    done
    _cluster_error "no host '$1' in the cluster (hosts: ${CLUSTER_HOSTS[*]})"
    return 1
}

# The index of host HOST, or an error.
_cluster_host_index() {
    local n
    for n in "${!CLUSTER_HOSTS[@]}"; do
        [[ ${CLUSTER_HOSTS[n]} == "$1" ]] && { echo "$n"; return 0; }
    done
    _cluster_error "no host '$1' in the cluster (hosts: ${CLUSTER_HOSTS[*]})"
    return 1
}

# Checks that K names one of the cluster's rails.
_cluster_rail_index() {
    if [[ ! $1 =~ ^[0-9]+$ || $1 -ge ${#CLUSTER_RAIL_IFACES[@]} ]]; then
        _cluster_error "no rail '$1' in the cluster (it has ${#CLUSTER_RAIL_IFACES[@]}${CLUSTER_RAILS:+: $CLUSTER_RAILS})"
        return 1
    fi
}

cluster_rail_addr() {
    local n addr rest first second
    n=$(_cluster_host_index "${1:-}") && _cluster_rail_index "${2:-}" || return 1
    addr=${CLUSTER_ADDRS[n]}
    first=${addr%%.*}
    rest=${addr#*.}
    second=${rest%%.*}
    echo "$first.$((second + 1 + $2)).${rest#*.}"
}

cluster_rail() {
    local host=${1:-} k=${2:-} what=${3:-} n
    n=$(_cluster_host_index "$host") && _cluster_rail_index "$k" || return 2
    case $what in
    rate)
        _cluster_rate_bytes "${4:-}" >/dev/null ||
            { _cluster_error "rail rate '${4:-}' is not a rate like 400mbit, 1gbit or 500kbit"; return 2; }
        _cluster_rail_shape change "$n" "$k" "$4"
        ;;
    down | up) _cluster_do ip -n "$host" link set "cl${CLUSTER_ID}r$k" "$what" ;;
    *) _cluster_error "usage: cluster_rail HOST K rate RATE | down | up (not '$what')"; return 2 ;;
    esac
}

cluster_fault() {
    local host=${1:-} what=${2:-} arg=${3:-} n pids p found=""
    n=$(_cluster_host_index "$host") || return 2
    case $what in
    down | up) _cluster_do ip -n "$host" link set "$CLUSTER_IFACE" "$what" ;;
    rate)
        if [[ $arg == off ]]; then
            _cluster_do ip netns exec "$host" tc qdisc del dev "$CLUSTER_IFACE" root &&
                _cluster_do ip netns exec "$CLUSTER_FABRIC" tc qdisc del dev "cl${CLUSTER_ID}h$n" root
            return
        fi
        _cluster_rate_bytes "$arg" >/dev/null ||
            { _cluster_error "rate '$arg' is not a rate like 1mbit or 500kbit (or off)"; return 2; }
        _cluster_do ip netns exec "$host" tc qdisc replace dev "$CLUSTER_IFACE" root tbf rate "$arg" \
            burst 32kbit latency 400ms &&
            _cluster_do ip netns exec "$CLUSTER_FABRIC" tc qdisc replace dev "cl${CLUSTER_ID}h$n" root \
                tbf rate "$arg" burst 32kbit latency 400ms
        ;;
    reset)
        if [[ -n $arg ]]; then
            [[ $arg =~ ^[0-9]+$ ]] || { _cluster_error "port '$arg' is not a number"; return 2; }
            _cluster_do ip netns exec "$host" ss -K -tnH not dst 127.0.0.0/8 and not dport = ":$arg"
        else
            _cluster_do ip netns exec "$host" ss -K -tnH not dst 127.0.0.0/8
        fi
        ;;
    cut | uncut)
        p=$(cluster_addr "$arg") || return 2
        if [[ $what == cut ]]; then
            _cluster_do ip -n "$host" route add unreachable "$p/32" &&
                _cluster_do ip netns exec "$host" ss -K -tnH dst "$p"
        else
            _cluster_do ip -n "$host" route del unreachable "$p/32"
        fi
        ;;
    stop | cont)
        [[ $arg =~ ^[0-9]+$ ]] || { _cluster_error "rank '$arg' is not a number"; return 2; }
        pids=$(ip netns pids "$host")
        for p in $pids; do
            if grep -qzx "COMM_WORLD_RANK=$arg" "/proc/$p/environ" 2>/dev/null; then
                kill "-${what^^}" "$p" 2>/dev/null && found=1
            fi
        done
        [[ -n $found ]] || { _cluster_error "no rank $arg runs on host $host"; return 1; }
        ;;
    *)
        _cluster_error "usage: cluster_fault HOST down | up | rate RATE|off | reset [PORT] | cut HOST2 | uncut HOST2 | stop RANK | cont RANK (not '$what')"
        return 2
        ;;
    esac
}

cluster_hostlist() {
    local slots=${1:-1} list="" h
    [[ $slots =~ ^[1-9][0-9]*$ ]] || { _cluster_error "slot count '$slots' is not a positive number"; return 2; }
    for h in "${CLUSTER_HOSTS[@]}"; do
        list="$list${list:+,}$h:$slots"
    done
    echo "$list"
}

cluster_rawtcp() {
    local from=${1:-} to=${2:-} to_addr out pid port tries status
    shift 2 || { _cluster_error "usage: cluster_rawtcp FROM TO [rawtcp client options]"; return 2; }
    _cluster_rawtcp_at "$from" "$to" "" "$@"
}

# cluster_rawtcp to TO's address ADDR (its rail's, say), or its own address when ADDR is "".
_cluster_rawtcp_at() {
    local from=$1 to=$2 to_addr=$3 out pid port tries status
    shift 3
    if [[ -z ${CLUSTER_RAWTCP:-} || ! -x $CLUSTER_RAWTCP ]]; then
        _cluster_error "CLUSTER_RAWTCP '${CLUSTER_RAWTCP:-}' is not the rawtcp program (build examples/bench/rawtcp)"
        return 2
    fi
    cluster_addr "$from" >/dev/null || return 2
    [[ -n $to_addr ]] || to_addr=$(cluster_addr "$to") || return 2
    out=$(mktemp "$CLUSTER_DIR/rawtcp.XXXXXX")
    ip netns exec "$to" "$CLUSTER_RAWTCP" -s -a "$to_addr" -p 0 -T 20 >"$out" 2>&1 &
    pid=$!
    port=""
    # Up to 30 s for the server to listen (a few ms on an idle machine).
    for tries in $(seq 600); do
        port=$(sed -n 's/^# rawtcp server listening on .* port \([0-9]*\)$/\1/p' "$out")
        [[ -n $port ]] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    if [[ -z $port ]]; then
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        _cluster_error "rawtcp server on $to ($to_addr) did not start: $(cat "$out")"
        rm -f "$out"
        return 1
    fi
    ip netns exec "$from" "$CLUSTER_RAWTCP" -c -a "$to_addr" -p "$port" -T 20 "$@"
    status=$?
    wait "$pid" || { status=1; _cluster_error "rawtcp server on $to: $(grep -v '^#' "$out")"; }
    rm -f "$out"
    return $status
}

# Every uplink interface in the fabric namespace (those the build makes, and any veth there
# that is not a host's port) has a tbf root qdisc.
_cluster_check_shaped() {
    local fab=$CLUSTER_FABRIC id=$CLUSTER_ID ifs=() names name r p out bad=0 pods
    if ((CLUSTER_RACKS > 1)); then
        for ((r = 0; r < CLUSTER_RACKS; r++)); do
            ifs+=("cl${id}up${r}r" "cl${id}up${r}s")
        done
    fi
    if ((CLUSTER_PODS > 1)); then
        for ((p = 0; p < CLUSTER_PODS; p++)); do
            ifs+=("cl${id}pu${p}r" "cl${id}pu${p}s")
        done
    fi
    if ! names=$(ip -n "$fab" -o link show type veth 2>&1); then
        _cluster_error "cannot list the interfaces of $fab: $names"
        return 1
    fi
    while read -r name; do
        # A host's port (on a rack's or a rail's bridge; rails are checked on their own).
        [[ -z $name || $name =~ ^cl${id}h[0-9]+(r[0-9]+)?$ || " ${ifs[*]} " == *" $name "* ]] ||
            ifs+=("$name")
    done < <(awk -F': ' '{ sub(/@.*/, "", $2); print $2 }' <<<"$names")
    for name in "${ifs[@]}"; do
        if ! out=$(tc -n "$fab" qdisc show dev "$name" 2>&1); then
            _cluster_error "uplink $name: no qdisc to show (tc -n $fab qdisc show dev $name: $out)"
            bad=1
        elif ! grep -q '^qdisc tbf [0-9a-f]*: root' <<<"$out"; then
            # tc ends its lines with a space.
            out=${out//$' \n'/$'\n'}
            out=${out% }
            _cluster_error "uplink $name is not shaped: it has no tbf root qdisc (tc -n $fab qdisc show dev $name: ${out:-nothing})"
            bad=1
        fi
    done
    ((bad == 0)) || return 1
    if ((${#ifs[@]} == 0)); then
        echo "cluster check: no uplink to check (one rack)"
    else
        pods=""
        ((CLUSTER_PODS > 1)) && pods=", $CLUSTER_PODS pod uplinks"
        echo "cluster check: all ${#ifs[@]} uplink interfaces have a tbf root qdisc" \
            "($CLUSTER_RACKS rack uplinks$pods, both ends)"
    fi
}

cluster_check() {
    local n m pairs=0 out inrack cross crosspod a b c d rate_mbs iters bad=0
    [[ -n $CLUSTER_DIR && ${#CLUSTER_HOSTS[@]} -gt 0 ]] || { _cluster_error "no cluster is up"; return 1; }
    # Every host reaches every other over TCP, through the rack bridge or across the spine.
    for n in "${!CLUSTER_HOSTS[@]}"; do
        for m in "${!CLUSTER_HOSTS[@]}"; do
            ((n == m)) && continue
            if ! out=$(cluster_rawtcp "${CLUSTER_HOSTS[n]}" "${CLUSTER_HOSTS[m]}" \
                -t latency -m 1:1 -i 20 -x 2 2>&1); then
                _cluster_error "no TCP from ${CLUSTER_HOSTS[n]} to ${CLUSTER_HOSTS[m]} (${CLUSTER_ADDRS[m]}): $out"
                bad=1
                continue
            fi
            pairs=$((pairs + 1))
        done
    done
    ((bad == 0)) || return 1
    echo "cluster check: TCP works between all $pairs ordered pairs of ${#CLUSTER_HOSTS[@]} hosts"
    _cluster_check_shaped || return 1
    # Shaping: a stream between racks against one inside rack 0 (if there are two of each), and
    # with pods, one between pods.
    a="" b="" c="" d=""
    for n in "${!CLUSTER_HOSTS[@]}"; do
        if [[ ${CLUSTER_RACK[n]} == 0 ]]; then
            if [[ -z $a ]]; then
                a=$n
            elif [[ -z $b ]]; then
                b=$n
            fi
        elif [[ -z $c ]]; then
            c=$n
        fi
        [[ -z $d && ${CLUSTER_POD[n]} != 0 ]] && d=$n
    done
    rate_mbs=$(awk -v b="$(_cluster_rate_bytes "$CLUSTER_UPLINK_RATE")" 'BEGIN { printf "%.2f", b / 1e6 }')
    # About one second across the uplink: windows of 64 x 64 KiB.
    iters=$(awk -v r="$rate_mbs" 'BEGIN { i = int(r / 4.2); print (i < 3 ? 3 : i) }')
    if [[ -z $b || -z $c ]]; then
        echo "cluster check: no shaping check${d:+ across racks} (it needs two hosts in rack 0 and a second rack)"
    else
        _cluster_check_racks "$a" "$b" "$c" "$rate_mbs" "$iters" || return 1
    fi
    if [[ -n $d ]]; then
        crosspod=$(cluster_rawtcp "${CLUSTER_HOSTS[a]}" "${CLUSTER_HOSTS[d]}" -t bw \
            -m 65536:65536 -i "$iters" -x 1 | awk '$1 == 65536 { print $2 }') || return 1
        if [[ -z $crosspod ]]; then
            _cluster_error "the bandwidth run across pods printed no result"
            return 1
        fi
        echo "cluster check: across pods ${CLUSTER_HOSTS[a]} -> ${CLUSTER_HOSTS[d]} $crosspod MB/s" \
            "(pod ${CLUSTER_POD[a]} -> pod ${CLUSTER_POD[d]}: four uplinks of $CLUSTER_UPLINK_RATE = $rate_mbs MB/s)"
        _cluster_at_rate "across pods" "$crosspod" "$rate_mbs" || return 1
    fi
    _cluster_check_rails
}

# A rack-only rail K does not reach another rack: a connection from the first host to the
# first host of another rack, on the rail's address, is neither accepted nor refused (a host
# that received it would refuse it: nothing listens on port 9); each rack's rail is a network
# of its own (a /24), so the kernel has no route there.
_cluster_check_rail_apart() {
    local k=$1 n other="" addr out
    for n in "${!CLUSTER_HOSTS[@]}"; do
        [[ ${CLUSTER_RACK[n]} != "${CLUSTER_RACK[0]}" ]] && { other=$n; break; }
    done
    [[ -n $other ]] || return 0
    addr=$(cluster_rail_addr "${CLUSTER_HOSTS[other]}" "$k") || return 1
    out=$(ip netns exec "${CLUSTER_HOSTS[0]}" timeout 2 bash -c "exec 3<>/dev/tcp/$addr/9" 2>&1)
    if [[ $? == 0 || $out == *refused* ]]; then
        _cluster_error "rack-only rail $k reaches ${CLUSTER_HOSTS[other]} ($addr) from ${CLUSTER_HOSTS[0]}, in another rack: ${out:-connected}"
        return 1
    fi
    echo "cluster check: rail $k (${CLUSTER_RAIL_IFACES[k]}) does not reach from rack" \
        "${CLUSTER_RACK[0]} to rack ${CLUSTER_RACK[other]}"
}

# Each rail: TCP between every ordered pair of hosts it joins, and a stream of about a second
# between the first two at the rail's rate.
_cluster_check_rails() {
    local k n m pairs out first second mbs rate_mbs iters addr
    for k in "${!CLUSTER_RAIL_IFACES[@]}"; do
        pairs=0 first="" second=""
        for n in "${!CLUSTER_HOSTS[@]}"; do
            for m in "${!CLUSTER_HOSTS[@]}"; do
                ((n == m)) && continue
                [[ ${CLUSTER_RAIL_SCOPES[k]} == rack && ${CLUSTER_RACK[n]} != "${CLUSTER_RACK[m]}" ]] &&
                    continue
                addr=$(cluster_rail_addr "${CLUSTER_HOSTS[m]}" "$k") || return 1
                if ! out=$(_cluster_rawtcp_at "${CLUSTER_HOSTS[n]}" "${CLUSTER_HOSTS[m]}" "$addr" \
                    -t latency -m 1:1 -i 20 -x 2 2>&1); then
                    _cluster_error "no TCP on rail $k from ${CLUSTER_HOSTS[n]} to ${CLUSTER_HOSTS[m]} ($addr): $out"
                    return 1
                fi
                pairs=$((pairs + 1))
                [[ -z $first ]] && first=$n second=$m
            done
        done
        if [[ ${CLUSTER_RAIL_SCOPES[k]} == rack ]]; then
            _cluster_check_rail_apart "$k" || return 1
        fi
        if [[ -z $first ]]; then
            echo "cluster check: rail $k (${CLUSTER_RAIL_IFACES[k]}) joins no two hosts"
            continue
        fi
        rate_mbs=$(awk -v b="$(_cluster_rate_bytes "${CLUSTER_RAIL_RATES[k]}")" 'BEGIN { printf "%.2f", b / 1e6 }')
        iters=$(awk -v r="$rate_mbs" 'BEGIN { i = int(r / 4.2); print (i < 3 ? 3 : i) }')
        addr=$(cluster_rail_addr "${CLUSTER_HOSTS[second]}" "$k") || return 1
        mbs=$(_cluster_rawtcp_at "${CLUSTER_HOSTS[first]}" "${CLUSTER_HOSTS[second]}" "$addr" \
            -t bw -m 65536:65536 -i "$iters" -x 1 | awk '$1 == 65536 { print $2 }') || return 1
        [[ -n $mbs ]] || { _cluster_error "the bandwidth run on rail $k printed no result"; return 1; }
        echo "cluster check: rail $k (${CLUSTER_RAIL_IFACES[k]}, ${CLUSTER_RAIL_SCOPES[k]}):" \
            "TCP between $pairs ordered pairs; ${CLUSTER_HOSTS[first]} -> ${CLUSTER_HOSTS[second]}" \
            "$mbs MB/s (rate ${CLUSTER_RAIL_RATES[k]} = $rate_mbs MB/s)"
        _cluster_at_rate "on rail $k" "$mbs" "$rate_mbs" || return 1
    done
}

# A stream WHERE ("across racks") of MBS MB/s went through uplinks of RATE_MBS: not faster
# than them (they are shaped) and not under half their rate.
_cluster_at_rate() {
    local where=$1 mbs=$2 rate_mbs=$3
    if ! awk -v x="$mbs" -v r="$rate_mbs" 'BEGIN { exit !(x <= 1.1 * r) }'; then
        _cluster_error "the uplinks are not shaped: $mbs MB/s $where, above their rate ($rate_mbs MB/s)"
        return 1
    fi
    if ! awk -v x="$mbs" -v r="$rate_mbs" 'BEGIN { exit !(x >= 0.5 * r) }'; then
        _cluster_error "the uplinks deliver $mbs MB/s $where, under half their rate ($rate_mbs MB/s)"
        return 1
    fi
}

# A stream from host index A to B (rack 0) against one from A to C (another rack): slower
# across racks, and at the uplink's rate RATE_MBS (ITERS windows: about a second).
_cluster_check_racks() {
    local a=$1 b=$2 c=$3 rate_mbs=$4 iters=$5 inrack cross
    inrack=$(cluster_rawtcp "${CLUSTER_HOSTS[a]}" "${CLUSTER_HOSTS[b]}" -t bw -m 65536:65536 \
        -i 20 -x 2 | awk '$1 == 65536 { print $2 }') || return 1
    cross=$(cluster_rawtcp "${CLUSTER_HOSTS[a]}" "${CLUSTER_HOSTS[c]}" -t bw -m 65536:65536 \
        -i "$iters" -x 1 | awk '$1 == 65536 { print $2 }') || return 1
    if [[ -z $inrack || -z $cross ]]; then
        _cluster_error "the bandwidth runs printed no result"
        return 1
    fi
    echo "cluster check: in rack ${CLUSTER_HOSTS[a]} -> ${CLUSTER_HOSTS[b]} $inrack MB/s;" \
        "across racks ${CLUSTER_HOSTS[a]} -> ${CLUSTER_HOSTS[c]} $cross MB/s" \
        "(uplink $CLUSTER_UPLINK_RATE = $rate_mbs MB/s)"
    if ! awk -v i="$inrack" -v x="$cross" 'BEGIN { exit !(x < i) }'; then
        _cluster_error "the uplink shaping is not visible: across racks ($cross MB/s) is not slower than in a rack ($inrack MB/s)"
        return 1
    fi
    _cluster_at_rate "across racks" "$cross" "$rate_mbs"
}
