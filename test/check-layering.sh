#!/bin/bash
# check-layering.sh - the layers are the top-level folders (docs/layout.md): this check reads the
# symbol tables of the built objects and the #include lines of the sources, and fails when a
# file uses or includes anything of a folder above its own, when a folder that holds code is in
# no layer, or when PMIx, libfabric, hwloc or libevent is used outside the folders that own
# them.
set -u
builddir=${TEST_BUILDDIR:?}
srcdir=${TEST_SRCDIR:?}
bad=0

# The map, bottom to top.  include/ (the public mpi.h) is below them all; launcher/ is the
# tools, above libcomm.
declare -A layer=(
    [include]=0
    [base]=1
    [pmix-glue]=2
    [topo]=3
    [btl]=4
    [runtime]=5
    [coll]=6
    [rma]=7
    [api]=8
    [fortran]=9
    [launcher]=10
)
# Folders that hold no layer: what is built on libcomm or beside it.
not_layers=" config docs examples man test "

# The layer of a path relative to the tree's top ("api/api_coll.c", "./api/.libs/x.o"), or
# nothing when its folder is not a layer.
layer_of() {
    local top=${1#./}
    top=${top%%/*}
    echo "${layer[$top]:-}"
}

# ---- every folder with code is a layer ----------------------------------------------------
cd "$srcdir" || exit 1
for d in $(find . -mindepth 2 -name '*.[ch]' -not -path './.git/*' -not -path './_*/*' |
    cut -d/ -f2 | sort -u); do
    [[ -e $d/config.status ]] && continue # a build tree inside the sources
    if [[ -z ${layer[$d]:-} && $not_layers != *" $d "* ]]; then
        echo "layering: folder $d/ holds code but is in no layer (add it to the map here and" \
            "to docs/layout.md)"
        bad=1
    fi
done

# ---- includes -----------------------------------------------------------------------------
nfiles=0
while IFS= read -r f; do
    l=$(layer_of "$f")
    [[ -z $l ]] && continue
    nfiles=$((nfiles + 1))
    while IFS=: read -r n inc; do
        to=$(layer_of "$inc")
        if [[ -n $to && $to -gt $l ]]; then
            echo "layering: $f:$n includes $inc, of a higher layer (${inc%%/*}/ above ${f%%/*}/)"
            bad=1
        fi
    done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*/[^"]*"' "$f" |
        sed -E 's/^([0-9]+):[^"]*"([^"]*)".*/\1:\2/')
done < <(find . -name '*.[ch]' -not -path './.git/*' -not -path './_*/*' | sed 's|^\./||' | sort)

# ---- symbols ------------------------------------------------------------------------------
cd "$builddir" || exit 1
objects=""
for d in "${!layer[@]}"; do
    [[ -d $d ]] && objects+=" $(find "./$d" -name '*.o' 2>/dev/null)"
done
objects=$(echo $objects | tr ' ' '\n' | sort)
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
        hwloc_*)
            [[ $o == ./topo/* || $o == ./launcher/* ]] ||
                { echo "layering: $o uses hwloc ($s)"; bad=1; } ;;
        event_* | evbuffer_* | bufferevent_* | evthread_* | evutil_*)
            [[ $o == ./launcher/* ]] || { echo "layering: $o uses libevent ($s)"; bad=1; } ;;
        esac
    done
done

# The libraries' headers, too: nothing else may even include them.
cd "$srcdir" || exit 1
while IFS= read -r hit; do
    echo "layering: $hit"
    bad=1
done < <(grep -rnE '#include <(pmix|pmix_server|pmix_common)\.h>' --include='*.[ch]' . |
             grep -v '^\./pmix-glue/\|^\./\.git/';
         grep -rnE '#include <rdma/' --include='*.[ch]' . | grep -v '^\./btl/ofi/\|^\./\.git/';
         grep -rnE '#include <hwloc' --include='*.[ch]' . |
             grep -v '^\./topo/\|^\./launcher/\|^\./\.git/\|^\./test/';
         grep -rnE '#include <event2/' --include='*.[ch]' . |
             grep -v '^\./launcher/\|^\./\.git/\|^\./test/')

if [[ $bad == 0 ]]; then
    echo "layering: $nfiles sources and $(echo "$objects" | wc -l) objects checked, no layer" \
        "reaches up"
fi
exit $bad
