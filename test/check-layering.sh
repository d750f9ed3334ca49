#!/bin/bash
# check-layering.sh - reads the symbol tables of the built objects and fails when a layer calls
# up, or when PMIx, libfabric, hwloc or libevent is used outside the folder that owns it.
#
# Layers, bottom to top: base (runtime/{abort,config,copy,error,log}) < pmix-glue
#   < topo (runtime/topo/) < btl < core (the rest of runtime/) < coll < api (runtime/api/)
#   < fortran (the Fortran entry points, fortran/) < launcher.
set -u
builddir=${TEST_BUILDDIR:?}
srcdir=${TEST_SRCDIR:?}
cd "$builddir" || exit 1
bad=0

layer_of() {
    local o=$1 base
    base=$(basename "$o" .o)
    base=${base#*-}   # per-target prefix "libfoo_la-"
    case $o in
    ./api/*) echo 6 ;;
    ./topo/*) echo 2 ;;
    ./base/*) echo 0 ;;
    ./runtime/*) echo 4 ;;
    ./pmix-glue/*) echo 1 ;;
    ./btl/*) echo 3 ;;
    ./coll/* | ./rma/*) echo 5 ;;
    ./fortran/*) echo 7 ;;
    ./launcher/*) echo 8 ;;
    *) echo -1 ;;
    esac
}

objects=$(find ./base ./topo ./api ./runtime ./pmix-glue ./btl ./coll ./rma ./fortran ./launcher -name '*.o' 2>/dev/null |
    sort)
if [[ -z $objects ]]; then
    echo "check-layering: no objects found under $builddir (build first)"
    exit 1
fi
declare -A defined_in
for o in $objects; do
    l=$(layer_of "$o")
    for s in $(nm --defined-only "$o" | awk '$2 ~ /[TDBRW]/ {print $3}'); do
        defined_in[$s]=$l
    done
done
for o in $objects; do
    l=$(layer_of "$o")
    for s in $(nm -u "$o" | awk '{print $2}'); do
        case $s in
        comm_* | MPI_* | PMPI_* | mpi_*_)
            d=${defined_in[$s]:-}
            if [[ -n $d && $d -gt $l ]]; then
                echo "layering: $o (layer $l) uses $s from a higher layer ($d)"
                bad=1
            fi
            ;;
        PMIx_* | pmix_*)
            [[ $o == ./pmix-glue/* ]] || { echo "layering: $o uses PMIx ($s)"; bad=1; } ;;
        fi_*)
            [[ $o == ./btl/* && $o == *ofi* ]] || { echo "layering: $o uses libfabric ($s)"; bad=1; } ;;
        event_* | evbuffer_* | evthread_* | evutil_*)
            [[ $o == ./launcher/* ]] || { echo "layering: $o uses libevent ($s)"; bad=1; } ;;
        esac
    done
done

# The headers, too: nothing else may even include them.
cd "$srcdir" || exit 1
while IFS= read -r hit; do
    echo "layering: $hit"
    bad=1
done < <(grep -rnE '#include <(pmix|pmix_server|pmix_common)\.h>' --include='*.[ch]' \
             runtime btl coll launcher examples | grep -v '^pmix-glue/';
         grep -rnE '#include <rdma/' --include='*.[ch]' runtime pmix-glue coll launcher examples)

if [[ $bad == 0 ]]; then
    echo "layering: $(echo "$objects" | wc -l) objects checked, no layer calls up"
fi
exit $bad
