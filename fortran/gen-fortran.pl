#!/usr/bin/perl
# gen-fortran.pl - writes comm's Fortran interfaces from include/mpi.h.
#
# Layer: fortran (build time).  Must not: write a constant's value (the C compiler computes them:
# the consts-c output is a C program that prints them), or know a function that mpi.h does not
# declare (except the Fortran-only ones it adds: MPI_F_sync_reg, MPI_Sizeof).
#
# Usage: gen-fortran.pl MODE mpi.h [more] > output
#   consts-c   a C program that prints the constants (args: ints handles f08-handles files)
#   entry-c    the C entry points mpi_xxx_ (mpif.h, mpi) and mpi_xxx_f08_ (mpi_f08 choice buffers)
#   mpif-tail  the part of mpif.h after the constants (special addresses, external declarations)
#   mpi-mod    the source of module mpi          mpi_f08-mod   the source of module mpi_f08
#   list       the functions with a Fortran binding, one per line (for test/check-fortran-*.sh)
#
# How a C argument becomes a Fortran one is derived from its C type (docs/fortran.md); the
# tables below hold what a C type cannot say: which integers are LOGICAL, which strings are out,
# how long an array of handles is, which functions are hand-written in fort_callbacks.c.
use strict;
use warnings;

my ($mode, $mpih) = @ARGV;
die "usage: gen-fortran.pl MODE mpi.h\n" unless defined $mpih;
open(my $fh, '<', $mpih) or die "gen-fortran.pl: cannot open $mpih: $!\n";
my $src = do { local $/; <$fh> };
close $fh;

my @HTYPES = qw(Comm Group Datatype Op Request Message Errhandler Info Win Session);
my %HTYPE = map { ("MPI_$_" => $_) } @HTYPES;
my %C2F = map { ($_ => ($_ eq 'Datatype' ? 'Type' : $_)) } @HTYPES;  # MPI_Type_c2f

# ---------------------------------------------------------------------------------------------
# The prototypes.
my @funcs;    # { name => 'Send', ret => 'int', args => [ {ctype, name, const, ptr, arr} ] }
{
    my $s = $src;
    $s =~ s{/\*.*?\*/}{}gs;
    $s =~ s{^\s*#.*$}{}gm;
    my @protos;
    while ($s =~ /COMM_MPI_API\s+([\w\s\*]+?)\s*\bMPI_(\w+)\s*\(([^;]*?)\)\s*;/gs) {
        push @protos, [$1, $2, $3];
    }
    while ($s =~ /COMM_DECLARE\(\s*([\w\s\*]+?)\s*,\s*(\w+)\s*,\s*\(([^;]*?)\)\s*\)\s*;/gs) {
        push @protos, [$1, $2, $3];
    }
    my %seen;
    for my $p (@protos) {
        my ($ret, $name, $args) = @$p;
        next if $seen{$name}++;
        $args =~ s/\s+/ /g;
        my @a;
        if ($args !~ /^\s*void\s*$/) {
            for my $arg (split /,/, $args) {
                $arg =~ s/^\s+|\s+$//g;
                next if $arg eq '...';
                my %x;
                $x{const} = ($arg =~ s/\bconst\b\s*//g) ? 1 : 0;
                $x{arr} = '';
                $x{arr} = $1 if $arg =~ s/\s*((?:\[\w*\])+)$//;
                $arg =~ /^(.*?)\s*(\**)\s*(\w+)$/ or die "gen-fortran.pl: cannot read '$arg' of MPI_$name\n";
                @x{qw(ctype ptr name)} = ($1, length($2), $3);
                push @a, \%x;
            }
        }
        push @funcs, { name => $name, ret => $ret, args => \@a };
    }
    @funcs = sort { $a->{name} cmp $b->{name} } @funcs;
}

# ---------------------------------------------------------------------------------------------
# Rules.
sub has_binding {
    my ($n) = @_;
    return 0 if $n =~ /^T_/ || $n =~ /_(c2f|f2c)$/;
    return 1;
}

# Written by hand in fortran/fort_callbacks.c: their Fortran argument lists (the standard's).
my %HAND = (
    Op_create => 'user_fn:proc:MPI_User_function commute:logical op:hout:Op',
    Comm_create_errhandler =>
        'comm_errhandler_fn:proc:MPI_Comm_errhandler_function errhandler:hout:Errhandler',
    Win_create_errhandler =>
        'win_errhandler_fn:proc:MPI_Win_errhandler_function errhandler:hout:Errhandler',
    Session_create_errhandler =>
        'session_errhandler_fn:proc:MPI_Session_errhandler_function errhandler:hout:Errhandler',
    Errhandler_create => 'function:proc:MPI_Handler_function errhandler:hout:Errhandler',
    Comm_create_keyval => 'comm_copy_attr_fn:proc:MPI_Comm_copy_attr_function '
        . 'comm_delete_attr_fn:proc:MPI_Comm_delete_attr_function comm_keyval:iout extra_state:aint',
    Type_create_keyval => 'type_copy_attr_fn:proc:MPI_Type_copy_attr_function '
        . 'type_delete_attr_fn:proc:MPI_Type_delete_attr_function type_keyval:iout extra_state:aint',
    Win_create_keyval => 'win_copy_attr_fn:proc:MPI_Win_copy_attr_function '
        . 'win_delete_attr_fn:proc:MPI_Win_delete_attr_function win_keyval:iout extra_state:aint',
    Keyval_create => 'copy_fn:proc:MPI_Copy_function delete_fn:proc:MPI_Delete_function '
        . 'keyval:iout extra_state:int',
    Comm_set_attr => 'comm:hin:Comm comm_keyval:int attribute_val:aint',
    Comm_get_attr => 'comm:hin:Comm comm_keyval:int attribute_val:aintout flag:logicalout',
    Type_set_attr => 'datatype:hin:Datatype type_keyval:int attribute_val:aint',
    Type_get_attr => 'datatype:hin:Datatype type_keyval:int attribute_val:aintout flag:logicalout',
    Win_set_attr => 'win:hin:Win win_keyval:int attribute_val:aint',
    Win_get_attr => 'win:hin:Win win_keyval:int attribute_val:aintout flag:logicalout',
    Attr_put => 'comm:hin:Comm keyval:int attribute_val:int',
    Attr_get => 'comm:hin:Comm keyval:int attribute_val:iout flag:logicalout',
    Grequest_start => 'query_fn:proc:MPI_Grequest_query_function '
        . 'free_fn:proc:MPI_Grequest_free_function cancel_fn:proc:MPI_Grequest_cancel_function '
        . 'extra_state:aint request:hout:Request',
);

# MPI-1 functions (removed in MPI 3) whose Fortran addresses are INTEGER, not MPI_ADDRESS_KIND.
my %MPI1_AINT = map { ($_ => 1) } qw(Address Type_extent Type_lb Type_ub Type_hvector
    Type_hindexed Type_struct);

# Integers that are LOGICAL in Fortran.
my %LOGICAL = map { ($_ => 1) } qw(flag high reorder periods remain_dims commute weighted complete);

# Output strings: the C buffer they need (the bound of the result).
my %STROUT = (
    'Get_processor_name.name' => 'MPI_MAX_PROCESSOR_NAME',
    'Get_library_version.version' => 'MPI_MAX_LIBRARY_VERSION_STRING',
    'Error_string.string' => 'MPI_MAX_ERROR_STRING',
    'Comm_get_name.comm_name' => 'MPI_MAX_OBJECT_NAME',
    'Type_get_name.type_name' => 'MPI_MAX_OBJECT_NAME',
    'Win_get_name.win_name' => 'MPI_MAX_OBJECT_NAME',
    'Info_get.value' => 'MPI_MAX_INFO_VAL',
    'Info_get_nthkey.key' => 'MPI_MAX_INFO_KEY',
    'Open_port.port_name' => 'MPI_MAX_PORT_NAME',
    'Lookup_name.port_name' => 'MPI_MAX_PORT_NAME',
    'Session_get_nth_pset.pset_name' => 'MPI_MAX_PSET_NAME_LEN',
);

# Arrays of handles: the number of elements (a C expression over the C entry's arguments).
my %HARRAY = (
    'Waitall.array_of_requests' => '*count', 'Testall.array_of_requests' => '*count',
    'Waitany.array_of_requests' => '*count', 'Testany.array_of_requests' => '*count',
    'Waitsome.array_of_requests' => '*incount', 'Testsome.array_of_requests' => '*incount',
    'Startall.array_of_requests' => '*count',
    'Type_create_struct.array_of_types' => '*count', 'Type_struct.array_of_types' => '*count',
    'Type_get_contents.array_of_datatypes' => '*max_datatypes',
    'Comm_spawn_multiple.array_of_info' => '*count',
);
for my $f (qw(Alltoallw Ialltoallw Alltoallw_init)) {
    $HARRAY{"$f.sendtypes"} = 'fort_comm_peers(c_comm)';
    $HARRAY{"$f.recvtypes"} = 'fort_comm_peers(c_comm)';
}
for my $f (qw(Neighbor_alltoallw Ineighbor_alltoallw Neighbor_alltoallw_init)) {
    $HARRAY{"$f.sendtypes"} = 'fort_neighbor_count(c_comm, 1)';
    $HARRAY{"$f.recvtypes"} = 'fort_neighbor_count(c_comm, 0)';
}

# A handle passed by address is read and written back (else only written, on success).
sub handle_inout {
    my ($f, $a) = @_;
    return 1 if $f =~ /_free$|^(Wait|Test|Start|Cancel|Type_commit|Comm_disconnect|Session_finalize)$/;
    return 1 if $f =~ /^I?mrecv$/i && $a eq 'message';
    return 1 if $HARRAY{"$f.$a"} && $f =~ /^(Wait|Test|Start)/;
    return 0;
}

# mpi_f08 choice buffers: the memory itself (no copy) where MPI keeps using it after the call.
sub choice_kind {
    my ($f) = @_;
    return 'addr' if $f =~ /^(Get_address|Address|Free_mem|F_sync_reg)$/;
    return 'async' if $f =~ /^I(?!nfo|ntercomm|nit)[a-z]/ || $f =~ /_init$/;
    return 'async' if $f =~ /^R?(put|get|accumulate|get_accumulate)$/i && $f ne 'Get';
    return 'async' if $f =~ /^(Put|Get|Accumulate|Get_accumulate|Fetch_and_op|Compare_and_swap)$/;
    return 'async' if $f =~ /^(Buffer_attach|Win_create|Win_attach|Win_detach)$/;
    return 'contig';
}

# ---------------------------------------------------------------------------------------------
# The Fortran model of every function with a binding: a list of arguments, each
#   { name, k => kind, t => scalar type or handle type, dim => '' | '*' | '3,*', dir, ... }
my @model;
for my $f (@funcs) {
    my $n = $f->{name};
    next unless has_binding($n);
    next if $n eq 'Pcontrol';
    my %m = (name => $n, ret => $f->{ret}, hand => exists $HAND{$n}, args => [], cargs => $f->{args});
    if ($HAND{$n}) {
        for my $spec (split ' ', $HAND{$n}) {
            my ($an, $k, $t) = split /:/, $spec;
            my %a = (name => $an);
            if ($k eq 'proc') { %a = (%a, k => 'proc', iface => $t) }
            elsif ($k eq 'logical') { %a = (%a, k => 'logical', dim => '', in => 1) }
            elsif ($k eq 'logicalout') { %a = (%a, k => 'logical', dim => '') }
            elsif ($k eq 'hout') { %a = (%a, k => 'handle', t => $t, dim => '', dir => 'out') }
            elsif ($k eq 'hin') { %a = (%a, k => 'handle', t => $t, dim => '', dir => 'in') }
            elsif ($k eq 'int') { %a = (%a, k => 'int', t => 'int', dim => '', in => 1) }
            elsif ($k eq 'iout') { %a = (%a, k => 'int', t => 'int', dim => '') }
            elsif ($k eq 'aint') { %a = (%a, k => 'int', t => 'aint', dim => '', in => 1) }
            elsif ($k eq 'aintout') { %a = (%a, k => 'int', t => 'aint', dim => '') }
            else { die "gen-fortran.pl: bad hand kind $k\n" }
            push @{ $m{args} }, \%a;
        }
        push @model, \%m;
        next;
    }
    for my $c (@{ $f->{args} }) {
        my ($ct, $p, $an, $arr, $const) = @$c{qw(ctype ptr name arr const)};
        my $ind = $p + ($arr ? 1 : 0);
        my %a = (name => $an, c => $c, const => $const);
        if ($n =~ /^Init/ && $an =~ /^arg[cv]$/) {
            next;
        } elsif ($ct eq 'int' && $ind == 0) {
            %a = (%a, k => ($LOGICAL{$an} ? 'logical' : 'int'), t => 'int', dim => '', in => 1);
        } elsif ($ct eq 'int' && $arr eq '[][3]') {
            %a = (%a, k => 'int', t => 'int', dim => '3,*', in => $const);
        } elsif ($ct eq 'int' && $ind == 1) {
            my $dim = ($arr || $an =~ /weights$/) ? '*' : '';
            if ($an =~ /weights$/) { %a = (%a, k => 'weights', t => 'int', dim => '*', in => $const) }
            elsif ($an eq 'array_of_errcodes') { %a = (%a, k => 'errcodes', t => 'int', dim => '*') }
            elsif ($an eq 'index' && $n =~ /^(Wait|Test)any$/) { %a = (%a, k => 'index', t => 'int', dim => '') }
            elsif ($an eq 'array_of_indices') { %a = (%a, k => 'indices', t => 'int', dim => '*') }
            elsif ($LOGICAL{$an}) { %a = (%a, k => 'logical', dim => $dim, in => $const) }
            else { %a = (%a, k => 'int', t => 'int', dim => $dim, in => $const) }
        } elsif ($ct eq 'MPI_Aint' && $MPI1_AINT{$n}) {
            # The removed MPI-1 functions take addresses as default INTEGERs in Fortran.
            %a = (%a, k => 'aint4', t => 'int', dim => ($arr ? '*' : ''), in => ($ind == 0 || $const),
                  byval => ($ind == 0));
        } elsif ($ct =~ /^MPI_(Aint|Count|Offset)$/) {
            my $t = lc $1;
            %a = (%a, k => 'int', t => $t, dim => ($arr ? '*' : ''), in => ($ind == 0 || $const));
        } elsif ($HTYPE{$ct}) {
            my $t = $HTYPE{$ct};
            if ($ind == 0) { %a = (%a, k => 'handle', t => $t, dim => '', dir => 'in') }
            elsif ($arr) {
                my $len = $HARRAY{"$n.$an"} or die "gen-fortran.pl: MPI_$n: no length for $an\n";
                %a = (%a, k => 'harray', t => $t, dim => '*', len => $len,
                      dir => ($const ? 'in' : handle_inout($n, $an) ? 'inout'
                              : $n eq 'Type_get_contents' ? 'out' : 'in'));
            } else {
                %a = (%a, k => 'handle', t => $t, dim => '', dir => (handle_inout($n, $an) ? 'inout' : 'out'));
            }
        } elsif ($ct eq 'MPI_Status') {
            %a = (%a, k => ($arr ? 'statuses' : 'status'), dim => ($arr ? '*' : ''), in => $const);
        } elsif ($ct eq 'void' && $ind == 1) {
            if ($an eq 'baseptr') { %a = (%a, k => 'baseptr') }
            elsif ($an eq 'buffer_addr') { %a = (%a, k => 'detach') }
            else { %a = (%a, k => 'choice', ck => choice_kind($n), in => $const) }
        } elsif ($ct eq 'char' && $ind == 1) {
            if ($const) { %a = (%a, k => 'strin', trim2 => ($n =~ /^Info_/ ? 1 : 0)) }
            else {
                my $max = $STROUT{"$n.$an"} or die "gen-fortran.pl: MPI_$n: unknown output string $an\n";
                %a = (%a, k => 'strout', max => $max);
            }
        } elsif ($ct eq 'char' && $ind == 2 && $an eq 'argv') {
            %a = (%a, k => 'argv', dim => '*');
        } elsif ($ct eq 'char' && $ind == 2) {
            %a = (%a, k => 'strarray', dim => '*');
        } elsif ($ct eq 'char' && $ind == 3) {
            %a = (%a, k => 'argvs', dim => 'count,*');
        } else {
            die "gen-fortran.pl: MPI_$n: no Fortran rule for '$ct" . ('*' x $p) . "$arr $an'\n";
        }
        push @{ $m{args} }, \%a;
    }
    push @model, \%m;
}
# Pcontrol: MPI_PCONTROL(LEVEL), no IERROR.
push @model, { name => 'Pcontrol', ret => 'void', noierror => 1, hand => 0, special => 1,
               args => [ { name => 'level', k => 'int', t => 'int', dim => '', in => 1 } ] };
# Fortran only.
push @model, { name => 'F_sync_reg', ret => 'void', noierror => 1, hand => 0, special => 1,
               args => [ { name => 'buf', k => 'choice', ck => 'addr' } ] };
# MPI_Comm_idup writes the new communicator when the request completes, into memory the
# Fortran caller does not have in C form: written by hand in fort_util.c (fort_idup_*).
$_->{special} = 1 for grep { $_->{name} eq 'Comm_idup' } @model;
@model = sort { $a->{name} cmp $b->{name} } @model;

sub is_function { my ($m) = @_; return $m->{ret} ne 'int' && $m->{ret} ne 'void' }
sub has_choice { my ($m) = @_; return scalar grep { $_->{k} eq 'choice' } @{ $m->{args} } }
sub needs_f08_entry {
    my ($m) = @_;
    return !$m->{hand} && ($m->{name} eq 'Buffer_detach' || has_choice($m));
}

# ---------------------------------------------------------------------------------------------

# ---------------------------------------------------------------------------------------------
# Constants: every object-like MPI_ macro and enumerator of mpi.h, printed by a C program.
sub constant_names {
    my $s = $src;
    $s =~ s{/\*.*?\*/}{}gs;
    my (@names, %seen);
    while ($s =~ /^\s*#\s*define\s+(MPI_\w+)\s+(.+)$/gm) {
        my ($n, $v) = ($1, $2);
        next if $n =~ /^MPI_T_/ && $v =~ /\(MPI_T_\w+\)/;
        next if $v =~ /\*\s*\)/;    # a pointer: special address or callback
        push @names, $n unless $seen{$n}++;
    }
    while ($s =~ /\benum\s*\{([^}]*)\}/gs) {
        for my $e (split /,/, $1) {
            push @names, $1 if $e =~ /^\s*(MPI_\w+)/ && !$seen{$1}++;
        }
    }
    return @names;
}

sub consts_c {
    my @names = constant_names();
    print <<'EOF';
/* fort_consts.c - generated by fortran/gen-fortran.pl from mpi.h: prints the Fortran constants.
 * Usage: fort_consts INTS HANDLES F08HANDLES (three Fortran include files). */
#include "include/mpi.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *ints, *handles, *f08;
static int bad;

static void line(FILE *f, const char *text)
{
    if (strlen(text) > 72) {
        fprintf(stderr, "fort_consts: line longer than 72 columns: %s\n", text);
        bad = 1;
    }
    fprintf(f, "%s\n", text);
}

static void put_int(const char *name, long long v)
{
    char b[128];
    snprintf(b, sizeof(b), "      integer %s", name);
    line(ints, b);
    snprintf(b, sizeof(b), "      parameter (%s=%lld)", name, v);
    line(ints, b);
}

static void put_kind(const char *name, const char *type, int v)
{
    char b[128];
    snprintf(b, sizeof(b), "      integer %s", name);
    line(handles, b);
    snprintf(b, sizeof(b), "      parameter (%s=%d)", name, v);
    line(handles, b);
    fprintf(f08, "type(%s), parameter :: %s = %s(%d)\n", type, name, type, v);
}

static void put_long(const char *name, long v) { put_int(name, v); }
EOF
    for my $t (@HTYPES) {
        print "static void put_$t(const char *name, MPI_$t h) { put_kind(name, \"MPI_$t\", MPI_$C2F{$t}_c2f(h)); }\n";
    }
    my $gen = join(', ', (map { "MPI_$_: put_$_" } @HTYPES), 'int: put_int', 'long: put_long',
                   'long long: put_int', 'unsigned: put_int');
    print "#define PUT(name) _Generic((name), $gen)(#name, (name))\n\n";
    print <<'EOF';
int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: fort_consts INTS HANDLES F08HANDLES\n");
        return 2;
    }
    ints = fopen(argv[1], "w");
    handles = fopen(argv[2], "w");
    f08 = fopen(argv[3], "w");
    if (ints == NULL || handles == NULL || f08 == NULL) {
        perror("fort_consts");
        return 1;
    }
    line(ints, "! Constants of comm (generated from mpi.h by fortran/gen-fortran.pl)");
    line(handles, "! Predefined handles (their Fortran index, MPI_<kind>_c2f).");
    fprintf(f08, "! Predefined handles of mpi_f08 (generated from mpi.h).\n");
    put_int("MPI_STATUS_SIZE", (long long)(sizeof(MPI_Status) / sizeof(MPI_Fint)));
    put_int("MPI_SOURCE", (long long)(offsetof(MPI_Status, MPI_SOURCE) / sizeof(int) + 1));
    put_int("MPI_TAG", (long long)(offsetof(MPI_Status, MPI_TAG) / sizeof(int) + 1));
    put_int("MPI_ERROR", (long long)(offsetof(MPI_Status, MPI_ERROR) / sizeof(int) + 1));
    /* gfortran's integer kinds are byte sizes. */
    put_int("MPI_ADDRESS_KIND", (long long)sizeof(MPI_Aint));
    put_int("MPI_OFFSET_KIND", (long long)sizeof(MPI_Offset));
    put_int("MPI_COUNT_KIND", (long long)sizeof(MPI_Count));
    put_int("MPI_INTEGER_KIND", (long long)sizeof(MPI_Fint));
EOF
    print "    PUT($_);\n" for @names;
    print <<'EOF';
    line(ints, "      logical MPI_SUBARRAYS_SUPPORTED");
    line(ints, "      parameter (MPI_SUBARRAYS_SUPPORTED=.false.)");
    line(ints, "      logical MPI_ASYNC_PROTECTS_NONBLOCKING");
    line(ints, "      parameter (MPI_ASYNC_PROTECTS_NONBLOCKING=.false.)");
    if (fclose(ints) != 0 || fclose(handles) != 0 || fclose(f08) != 0) {
        perror("fort_consts");
        return 1;
    }
    return bad;
}
EOF
}

# ---------------------------------------------------------------------------------------------
# Fortran declarations.
my %FKIND = (int => 'integer', aint => 'integer(kind=MPI_ADDRESS_KIND)',
             count => 'integer(kind=MPI_COUNT_KIND)', offset => 'integer(kind=MPI_OFFSET_KIND)');

# Lines declaring one argument; $f08 picks the mpi_f08 form.
sub fdecl {
    my ($m, $a, $f08) = @_;
    my ($n, $k, $dim) = ($a->{name}, $a->{k}, $a->{dim} // '');
    my $d = $dim ne '' ? "($dim)" : '';
    my $in = $a->{in} ? ', intent(in)' : '';
    if ($k eq 'int' || $k eq 'weights' || $k eq 'errcodes' || $k eq 'index' || $k eq 'indices'
        || $k eq 'aint4') {
        my $t = $FKIND{ $a->{t} // 'int' };
        return ("$t$in :: $n$d");
    }
    if ($k eq 'logical') { return ("logical$in :: $n$d") }
    if ($k eq 'handle' || $k eq 'harray') {
        my $dir = $a->{dir} eq 'in' ? ', intent(in)' : '';
        return $f08 ? ("type(MPI_$a->{t})$dir :: $n$d") : ("integer$dir :: $n$d");
    }
    if ($k eq 'status') {
        return $f08 ? ("type(MPI_Status) :: $n") : ("integer :: $n(MPI_STATUS_SIZE)");
    }
    if ($k eq 'statuses') {
        return $f08 ? ("type(MPI_Status) :: $n(*)") : ("integer :: $n(MPI_STATUS_SIZE,*)");
    }
    if ($k eq 'choice') {
        if ($f08) {
            my $ck = $a->{ck};
            my $attr = $ck eq 'contig' ? ', contiguous' : $ck eq 'async' ? ', asynchronous' : '';
            return ("type(*), dimension(..)$attr$in :: $n");
        }
        return ("!GCC\$ ATTRIBUTES NO_ARG_CHECK :: $n", "type(*), dimension(*)$in :: $n");
    }
    if ($k eq 'strin') { return ("character(len=*), intent(in) :: $n") }
    if ($k eq 'strout') { return ("character(len=*) :: $n") }
    if ($k eq 'argv' || $k eq 'strarray') { return ("character(len=*), intent(in) :: $n(*)") }
    if ($k eq 'argvs') { return ("character(len=*), intent(in) :: $n(count,*)") }
    if ($k eq 'baseptr') {
        return $f08 ? ("type(c_ptr) :: $n") : ("integer(kind=MPI_ADDRESS_KIND) :: $n");
    }
    if ($k eq 'detach') {
        return $f08 ? ("type(c_ptr) :: $n")
                    : ("!GCC\$ ATTRIBUTES NO_ARG_CHECK :: $n", "type(*), dimension(*) :: $n");
    }
    if ($k eq 'proc') { return $f08 ? ("procedure($a->{iface}) :: $n") : ("external :: $n") }
    die "gen-fortran.pl: no declaration for kind $k\n";
}

# One interface body (free form, indented).
sub interface_body {
    my ($m, $f08) = @_;
    my $n = "MPI_$m->{name}";
    my @names = map { $_->{name} } @{ $m->{args} };
    push @names, 'ierror' unless $m->{noierror} || is_function($m);
    my ($head, $tail, $bind) = ('subroutine', 'end subroutine', '');
    if ($f08 && needs_f08_entry($m)) {
        $bind = ' bind(C, name="mpi_' . lc($m->{name}) . '_f08_")';
    }
    if ($f08 && $m->{name} eq 'F_sync_reg') { $bind = ' bind(C, name="mpi_f_sync_reg_")' }
    my @out;
    my $ret = '';
    if (is_function($m)) {
        $head = 'function';
        $tail = 'end function';
        $ret = $m->{ret} eq 'double' ? 'double precision' : 'integer(kind=MPI_ADDRESS_KIND)';
    }
    push @out, "$head $n(" . join(', ', @names) . ")$bind";
    push @out, "  import";
    push @out, "  implicit none";
    push @out, "  $ret :: $n" if $ret;
    push @out, map { "  $_" } fdecl($m, $_, $f08) for @{ $m->{args} };
    if (!$m->{noierror} && !is_function($m)) {
        push @out, $f08 ? "  integer, optional, intent(out) :: ierror" : "  integer :: ierror";
    }
    push @out, "$tail $n";
    return map { wrap($_) } @out;
}

# Free-form lines (at most 132 columns) are continued past 100, to stay readable.
sub wrap {
    my ($l) = @_;
    return $l if length($l) <= 100;
    my @parts;
    while (length($l) > 100) {
        my $cut = rindex($l, ',', 95);
        $cut = rindex($l, ' ', 95) if $cut < 10;
        push @parts, substr($l, 0, $cut + 1) . ' &';
        $l = '      ' . substr($l, $cut + 1);
    }
    return (@parts, $l);
}

sub specials_mpif {
    return (
        "      integer MPI_BOTTOM",
        "      common /mpi_fortran_bottom/ MPI_BOTTOM",
        "      integer MPI_IN_PLACE",
        "      common /mpi_fortran_in_place/ MPI_IN_PLACE",
        "      integer MPI_STATUS_IGNORE(MPI_STATUS_SIZE)",
        "      common /mpi_fortran_status_ignore/ MPI_STATUS_IGNORE",
        "      integer MPI_STATUSES_IGNORE(MPI_STATUS_SIZE,1)",
        "      common /mpi_fortran_statuses_ignore/ MPI_STATUSES_IGNORE",
        "      integer MPI_ERRCODES_IGNORE(1)",
        "      common /mpi_fortran_errcodes_ignore/ MPI_ERRCODES_IGNORE",
        "      character(len=1) MPI_ARGV_NULL(1)",
        "      common /mpi_fortran_argv_null/ MPI_ARGV_NULL",
        "      character(len=1) MPI_ARGVS_NULL(1,1)",
        "      common /mpi_fortran_argvs_null/ MPI_ARGVS_NULL",
        "      integer MPI_UNWEIGHTED(1)",
        "      common /mpi_fortran_unweighted/ MPI_UNWEIGHTED",
        "      integer MPI_WEIGHTS_EMPTY(1)",
        "      common /mpi_fortran_weights_empty/ MPI_WEIGHTS_EMPTY",
    );
}

my @CALLBACKS = qw(MPI_COMM_NULL_COPY_FN MPI_COMM_DUP_FN MPI_COMM_NULL_DELETE_FN
    MPI_TYPE_NULL_COPY_FN MPI_TYPE_DUP_FN MPI_TYPE_NULL_DELETE_FN MPI_WIN_NULL_COPY_FN
    MPI_WIN_DUP_FN MPI_WIN_NULL_DELETE_FN MPI_NULL_COPY_FN MPI_DUP_FN MPI_NULL_DELETE_FN);
my %CALLBACK_IFACE = (
    MPI_COMM_NULL_COPY_FN => 'MPI_Comm_copy_attr_function', MPI_COMM_DUP_FN => 'MPI_Comm_copy_attr_function',
    MPI_COMM_NULL_DELETE_FN => 'MPI_Comm_delete_attr_function',
    MPI_TYPE_NULL_COPY_FN => 'MPI_Type_copy_attr_function', MPI_TYPE_DUP_FN => 'MPI_Type_copy_attr_function',
    MPI_TYPE_NULL_DELETE_FN => 'MPI_Type_delete_attr_function',
    MPI_WIN_NULL_COPY_FN => 'MPI_Win_copy_attr_function', MPI_WIN_DUP_FN => 'MPI_Win_copy_attr_function',
    MPI_WIN_NULL_DELETE_FN => 'MPI_Win_delete_attr_function',
    MPI_NULL_COPY_FN => 'MPI_Copy_function', MPI_DUP_FN => 'MPI_Copy_function',
    MPI_NULL_DELETE_FN => 'MPI_Delete_function',
);

sub mpif_tail {
    print "! Special addresses: common blocks whose storage libcomm defines.\n";
    print "$_\n" for specials_mpif();
    print "! Predefined callbacks.\n";
    print "      external $_\n" for @CALLBACKS;
    print "! The functions.\n";
    for my $m (@model) {
        my $n = "MPI_$m->{name}";
        if (is_function($m)) {
            my $t = $m->{ret} eq 'double' ? 'double precision' : 'integer(kind=MPI_ADDRESS_KIND)';
            print "      $t $n\n";
        }
        print "      external $n\n";
    }
}

sub mpi_mod {
    print <<'EOF';
! mpi.f90 - module mpi of comm (generated from mpi.h by fortran/gen-fortran.pl).
! Explicit interfaces of every routine; choice buffers accept any type, kind and rank
! (gfortran's NO_ARG_CHECK).  The routines are libcomm's C entry points mpi_xxx_.
module mpi
  implicit none
  public
  include 'mpif-ints.h'
  include 'mpif-handles.h'
EOF
    print "  $_\n" for map { s/^\s+//r } specials_mpif();
    print "  external :: $_\n" for @CALLBACKS;
    print "  interface MPI_Sizeof\n";
    print "    subroutine MPI_Sizeof(x, size, ierror) bind(C, name=\"mpi_sizeof_f08_\")\n";
    print "      type(*), dimension(..) :: x\n      integer :: size\n";
    print "      integer, optional :: ierror\n    end subroutine MPI_Sizeof\n  end interface\n";
    print "  interface\n";
    for my $m (@model) {
        print "    $_\n" for interface_body($m, 0);
    }
    print "  end interface\nend module mpi\n";
}

sub f08_mod {
    my @eq;
    print <<'EOF';
! mpi_f08.f90 - module mpi_f08 of comm (generated from mpi.h by fortran/gen-fortran.pl).
! Handles are derived types holding the Fortran index (MPI_VAL); choice buffers are assumed
! rank, bound to C entry points that read the array descriptor; ierror is optional.
module mpi_f08
  use, intrinsic :: iso_c_binding, only : c_ptr, c_int
  implicit none
  public
  include 'mpif-ints.h'
EOF
    for my $t (@HTYPES) {
        print "  type, bind(C) :: MPI_$t\n    integer(c_int) :: MPI_VAL\n  end type MPI_$t\n";
    }
    print "  type, bind(C) :: MPI_File\n    integer(c_int) :: MPI_VAL\n  end type MPI_File\n";
    print "  type, bind(C) :: MPI_Status\n";
    print "    integer(c_int) :: MPI_SOURCE, MPI_TAG, MPI_ERROR\n";
    print "    integer(c_int) :: comm_reserved(5)\n  end type MPI_Status\n";
    print "  include 'mpi_f08-handles.h'\n";
    print <<'EOF';
  integer(c_int), bind(C, name="mpi_fortran_bottom_") :: MPI_BOTTOM
  integer(c_int), bind(C, name="mpi_fortran_in_place_") :: MPI_IN_PLACE
  type(MPI_Status), bind(C, name="mpi_fortran_status_ignore_") :: MPI_STATUS_IGNORE
  type(MPI_Status), dimension(1), bind(C, name="mpi_fortran_statuses_ignore_") :: MPI_STATUSES_IGNORE
  integer(c_int), dimension(1), bind(C, name="mpi_fortran_errcodes_ignore_") :: MPI_ERRCODES_IGNORE
  character(len=1), dimension(1), bind(C, name="mpi_fortran_argv_null_") :: MPI_ARGV_NULL
  character(len=1), dimension(1,1), bind(C, name="mpi_fortran_argvs_null_") :: MPI_ARGVS_NULL
  integer(c_int), dimension(1), bind(C, name="mpi_fortran_unweighted_") :: MPI_UNWEIGHTED
  integer(c_int), dimension(1), bind(C, name="mpi_fortran_weights_empty_") :: MPI_WEIGHTS_EMPTY

  abstract interface
    subroutine MPI_User_function(invec, inoutvec, len, datatype)
      import
      type(c_ptr), value :: invec, inoutvec
      integer :: len
      type(MPI_Datatype) :: datatype
    end subroutine MPI_User_function
EOF
    for my $o (qw(Comm Win Session File)) {
        my $an = lc $o;
        print "    subroutine MPI_${o}_errhandler_function($an, error_code)\n      import\n";
        print "      type(MPI_$o) :: $an\n      integer :: error_code\n";
        print "    end subroutine MPI_${o}_errhandler_function\n";
    }
    print "    subroutine MPI_Handler_function(comm, error_code)\n      import\n";
    print "      type(MPI_Comm) :: comm\n      integer :: error_code\n";
    print "    end subroutine MPI_Handler_function\n";
    for my $o (qw(Comm Type Win)) {
        my $t = $o eq 'Type' ? 'Datatype' : $o;
        my $lo = lc $o;
        print "    subroutine MPI_${o}_copy_attr_function(old$lo, ${lo}_keyval, extra_state, &\n";
        print "        attribute_val_in, attribute_val_out, flag, ierror)\n      import\n";
        print "      type(MPI_$t) :: old$lo\n      integer :: ${lo}_keyval, ierror\n";
        print "      integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out\n";
        print "      logical :: flag\n    end subroutine MPI_${o}_copy_attr_function\n";
        print "    subroutine MPI_${o}_delete_attr_function($lo, ${lo}_keyval, attribute_val, &\n";
        print "        extra_state, ierror)\n      import\n";
        print "      type(MPI_$t) :: $lo\n      integer :: ${lo}_keyval, ierror\n";
        print "      integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state\n";
        print "    end subroutine MPI_${o}_delete_attr_function\n";
    }
    print <<'EOF';
    subroutine MPI_Copy_function(oldcomm, keyval, extra_state, attribute_val_in, &
        attribute_val_out, flag, ierror)
      import
      type(MPI_Comm) :: oldcomm
      integer :: keyval, extra_state, attribute_val_in, attribute_val_out, ierror
      logical :: flag
    end subroutine MPI_Copy_function
    subroutine MPI_Delete_function(comm, keyval, attribute_val, extra_state, ierror)
      import
      type(MPI_Comm) :: comm
      integer :: keyval, attribute_val, extra_state, ierror
    end subroutine MPI_Delete_function
    subroutine MPI_Grequest_query_function(extra_state, status, ierror)
      import
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      type(MPI_Status) :: status
      integer :: ierror
    end subroutine MPI_Grequest_query_function
    subroutine MPI_Grequest_free_function(extra_state, ierror)
      import
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      integer :: ierror
    end subroutine MPI_Grequest_free_function
    subroutine MPI_Grequest_cancel_function(extra_state, complete, ierror)
      import
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
      logical :: complete
      integer :: ierror
    end subroutine MPI_Grequest_cancel_function
  end interface

EOF
    print "  procedure($CALLBACK_IFACE{$_}) :: $_\n" for @CALLBACKS;
    my @ops;
    for my $t (@HTYPES, 'File') {
        push @ops, "comm_f08_${t}_eq", "comm_f08_${t}_ne";
    }
    print "  interface operator(==)\n";
    print "    module procedure comm_f08_${_}_eq\n" for (@HTYPES, 'File');
    print "  end interface\n  interface operator(/=)\n";
    print "    module procedure comm_f08_${_}_ne\n" for (@HTYPES, 'File');
    print "  end interface\n";
    print "  private :: $_\n" for @ops;
    print "  interface MPI_Sizeof\n";
    print "    subroutine MPI_Sizeof(x, size, ierror) bind(C, name=\"mpi_sizeof_f08_\")\n";
    print "      type(*), dimension(..) :: x\n      integer :: size\n";
    print "      integer, optional, intent(out) :: ierror\n    end subroutine MPI_Sizeof\n  end interface\n";
    print "  interface\n";
    for my $m (@model) {
        print "    $_\n" for interface_body($m, 1);
    }
    print "  end interface\ncontains\n";
    for my $t (@HTYPES, 'File') {
        print "  elemental logical function comm_f08_${t}_eq(a, b)\n";
        print "    type(MPI_$t), intent(in) :: a, b\n";
        print "    comm_f08_${t}_eq = a%MPI_VAL == b%MPI_VAL\n  end function comm_f08_${t}_eq\n";
        print "  elemental logical function comm_f08_${t}_ne(a, b)\n";
        print "    type(MPI_$t), intent(in) :: a, b\n";
        print "    comm_f08_${t}_ne = a%MPI_VAL /= b%MPI_VAL\n  end function comm_f08_${t}_ne\n";
    }
    print "end module mpi_f08\n";
}

# ---------------------------------------------------------------------------------------------
# The C entry points.
my %CTYPE = (int => 'MPI_Fint', aint => 'MPI_Aint', count => 'MPI_Count', offset => 'MPI_Offset');

# Parameters of the mpif entry (list of [decl, name]), hidden lengths last.
sub c_params {
    my ($m) = @_;
    my (@p, @hidden);
    for my $a (@{ $m->{args} }) {
        my ($n, $k) = ($a->{name}, $a->{k});
        my $const = $a->{in} ? 'const ' : '';
        if ($k eq 'int' || $k eq 'weights' || $k eq 'errcodes' || $k eq 'index' || $k eq 'indices'
            || $k eq 'aint4') {
            push @p, "$const$CTYPE{$a->{t}} *$n";
        } elsif ($k eq 'logical' || $k eq 'handle' || $k eq 'harray' || $k eq 'status' || $k eq 'statuses') {
            my $c = ($k eq 'handle' || $k eq 'harray') && $a->{dir} eq 'in' ? 'const ' : $const;
            $c = '' if $k eq 'status' || $k eq 'statuses';
            push @p, "${c}MPI_Fint *$n";
        } elsif ($k eq 'choice') {
            push @p, "${const}void *$n";
        } elsif ($k eq 'strin' || $k eq 'argv' || $k eq 'strarray' || $k eq 'argvs') {
            push @p, "const char *$n";
            push @hidden, "size_t ${n}_len";
        } elsif ($k eq 'strout') {
            push @p, "char *$n";
            push @hidden, "size_t ${n}_len";
        } elsif ($k eq 'baseptr') {
            push @p, "MPI_Aint *$n";
        } elsif ($k eq 'detach') {
            push @p, "void *$n";
        } else {
            die "gen-fortran.pl: no C parameter for kind $k\n";
        }
    }
    push @p, 'MPI_Fint *ierror' unless $m->{noierror} || is_function($m);
    return (@p, @hidden);
}

sub pname { my ($d) = @_; $d =~ /(\w+)$/; return $1 }

sub c_body {
    my ($m) = @_;
    my $n = $m->{name};
    my (@decl, @pre, @call, @post, @clean);
    my $fail = 0;    # pre-steps can fail (then: goto out)
    my $cfn = "MPI_$n";
    my %byname = map { ($_->{name} => $_) } @{ $m->{args} };
    for my $a (@{ $m->{args} }) {
        my ($an, $k) = ($a->{name}, $a->{k});
        if ($k eq 'int') {
            if ($a->{dim} eq '3,*') { push @call, "(int (*)[3])$an" }
            else { push @call, ($a->{c}{ptr} == 0 && $a->{c}{arr} eq '') ? "*$an" : $an }
        } elsif ($k eq 'aint4') {
            if ($a->{byval}) { push @call, "(MPI_Aint)*$an" }
            elsif ($a->{dim} eq '') {
                push @decl, "    MPI_Aint c_$an = 0;";
                push @call, "&c_$an";
                push @post, "    if (rc == MPI_SUCCESS) {\n        rc = fort_aint_to_int(\"$cfn\", \"$an\", c_$an, $an);\n    }";
            } else {
                $fail = 1;
                push @decl, "    MPI_Aint ${an}_stack[FORT_STACK_HANDLES] = {0};",
                            "    MPI_Aint *c_$an = ${an}_stack;", "    int n_$an = *count;";
                push @pre, "    if (n_$an > FORT_STACK_HANDLES) {\n" .
                           "        c_$an = malloc((size_t)n_$an * sizeof(*c_$an));\n" .
                           "        if (c_$an == NULL) {\n" .
                           "            rc = fort_no_memory(\"$cfn\", \"$an\");\n            goto out;\n        }\n    }\n" .
                           "    for (int i = 0; i < n_$an; i++) {\n        c_${an}[i] = ${an}[i];\n    }";
                push @call, "c_$an";
                push @clean, "    if (c_$an != ${an}_stack) {\n        free(c_$an);\n    }";
            }
        } elsif ($k eq 'logical') {
            if ($a->{dim} eq '' && $a->{in}) { push @call, "(*$an != 0)" }
            else {
                push @call, $an;
                if ($a->{dim} eq '') { push @post, "    if (rc == MPI_SUCCESS) {\n        *$an = (*$an != 0);\n    }" }
                elsif (!$a->{in}) {
                    push @post, "    if (rc == MPI_SUCCESS) {\n        fort_logicals_out($an, *maxdims);\n    }";
                }
            }
        } elsif ($k eq 'weights') {
            push @call, $a->{in} ? "fort_weights_in($an)" : "fort_weights_out($an)";
        } elsif ($k eq 'errcodes') {
            push @call, "fort_errcodes($an)";
        } elsif ($k eq 'index') {
            push @call, $an;
            push @post, "    if (rc == MPI_SUCCESS && *$an >= 0) {\n        *$an += 1;\n    }";
        } elsif ($k eq 'indices') {
            push @call, $an;
            push @post, "    if (rc == MPI_SUCCESS) {\n        fort_indices_out($an, *outcount);\n    }";
        } elsif ($k eq 'handle') {
            my $t = $a->{t};
            if ($a->{dir} eq 'in') {
                if ($an eq 'comm' && grep { $_->{k} eq 'harray' && $_->{len} =~ /c_comm/ } @{ $m->{args} }) {
                    unshift @decl, "    MPI_Comm c_comm = MPI_Comm_f2c(*comm);";
                    push @call, 'c_comm';
                } else {
                    push @call, "MPI_$C2F{$t}_f2c(*$an)";
                }
            } else {
                my $init = $a->{dir} eq 'inout' ? " = MPI_$C2F{$t}_f2c(*$an)" : '';
                push @decl, "    MPI_$t c_$an$init;";
                push @call, "&c_$an";
                if ($n eq 'Request_free') {
                    push @pre, "    fort_idup_forget($an);";
                }
                if ($n =~ /^(Wait|Test)$/ && $an eq 'request') {
                    push @post, "    fort_idup_done($an, &c_$an, 1);";
                }
                if ($a->{dir} eq 'inout') { push @post, "    *$an = MPI_$C2F{$t}_c2f(c_$an);" }
                else { push @post, "    if (rc == MPI_SUCCESS) {\n        *$an = MPI_$C2F{$t}_c2f(c_$an);\n    }" }
            }
        } elsif ($k eq 'harray') {
            my ($t, $dir, $len) = ($a->{t}, $a->{dir}, $a->{len});
            $fail = 1;
            push @decl, "    MPI_$t ${an}_stack[FORT_STACK_HANDLES] = {0};",
                        "    MPI_$t *c_$an = ${an}_stack;",
                        "    int n_$an = $len;";
            my $skip = '';
            if ($an eq 'sendtypes' && $byname{sendbuf}) {
                $skip = "fort_buf(sendbuf) != MPI_IN_PLACE && ";
            }
            my %null = (Comm => 'COMM', Group => 'GROUP', Datatype => 'DATATYPE', Op => 'OP',
                        Request => 'REQUEST', Message => 'MESSAGE', Errhandler => 'ERRHANDLER',
                        Info => 'INFO', Win => 'WIN', Session => 'SESSION');
            # Elements the C function does not write convert as the null handle.
            my $conv = $dir eq 'out' ?
                "    for (int i = 0; i < n_$an; i++) {\n        c_${an}[i] = MPI_$null{$t}_NULL;\n    }\n" :
                "    if (${skip}n_$an > 0) {\n        for (int i = 0; i < n_$an; i++) {\n" .
                "            c_${an}[i] = MPI_$C2F{$t}_f2c(${an}[i]);\n        }\n    }\n";
            push @pre, "    if (n_$an > FORT_STACK_HANDLES) {\n" .
                       "        c_$an = malloc((size_t)n_$an * sizeof(*c_$an));\n" .
                       "        if (c_$an == NULL) {\n" .
                       "            rc = fort_no_memory(\"$cfn\", \"$an\");\n            goto out;\n        }\n    }\n" . $conv;
            push @call, "c_$an";
            if ($n =~ /^(Wait|Test)(all|any|some)$/) {
                push @post, "    fort_idup_done($an, c_$an, n_$an);";
            }
            if ($dir ne 'in') {
                push @post, ($dir eq 'out' ? "    if (rc == MPI_SUCCESS) {\n" : "    {\n") .
                    "        for (int i = 0; i < n_$an; i++) {\n" .
                    "            ${an}[i] = MPI_$C2F{$t}_c2f(c_${an}[i]);\n        }\n    }";
            }
            push @clean, "    if (c_$an != ${an}_stack) {\n        free(c_$an);\n    }";
        } elsif ($k eq 'status') {
            push @call, $a->{in} ? "(const MPI_Status *)(const void *)$an" : "fort_status($an)";
        } elsif ($k eq 'statuses') {
            push @call, "fort_statuses($an)";
        } elsif ($k eq 'choice') {
            push @call, "fort_buf($an)";
        } elsif ($k eq 'strin') {
            $fail = 1;
            push @decl, "    char ${an}_stack[FORT_STACK_STRING];", "    char *c_$an = NULL;";
            push @pre, "    rc = fort_string_in(\"$cfn\", \"$an\", $an, ${an}_len, $a->{trim2}, ${an}_stack,\n" .
                       "                        sizeof(${an}_stack), &c_$an);\n" .
                       "    if (rc != MPI_SUCCESS) {\n        goto out;\n    }";
            push @call, "c_$an";
            push @clean, "    if (c_$an != ${an}_stack) {\n        free(c_$an);\n    }";
        } elsif ($k eq 'strout') {
            push @decl, "    char c_${an}[$a->{max} + 1];";
            push @pre, "    c_${an}[0] = '\\0';";
            push @call, "c_$an";
            if ($n eq 'Session_get_nth_pset') {
                push @post, "    if (rc == MPI_SUCCESS) {\n        if (c_len > 0) {\n" .
                            "            fort_string_out(c_$an, $an, ${an}_len);\n        }\n" .
                            "        *pset_len = c_len > 0 ? c_len - 1 : 0;\n    }";
            } elsif ($n eq 'Info_get') {
                push @post, "    if (rc == MPI_SUCCESS && *flag) {\n        fort_string_out(c_$an, $an, ${an}_len);\n    }";
            } else {
                push @post, "    if (rc == MPI_SUCCESS) {\n        fort_string_out(c_$an, $an, ${an}_len);\n    }";
            }
        } elsif ($k eq 'argv') {
            $fail = 1;
            push @decl, "    char **c_$an = NULL;";
            push @pre, "    rc = fort_argv_in(\"$cfn\", $an, ${an}_len, &c_$an);\n" .
                       "    if (rc != MPI_SUCCESS) {\n        goto out;\n    }";
            push @call, "c_$an";
            push @clean, "    fort_argv_free(c_$an);";
        } elsif ($k eq 'strarray') {
            $fail = 1;
            push @decl, "    char **c_$an = NULL;";
            push @pre, "    rc = fort_strings_in(\"$cfn\", $an, ${an}_len, *count, &c_$an);\n" .
                       "    if (rc != MPI_SUCCESS) {\n        goto out;\n    }";
            push @call, "c_$an";
            push @clean, "    fort_argv_free(c_$an);";
        } elsif ($k eq 'argvs') {
            $fail = 1;
            push @decl, "    char ***c_$an = NULL;";
            push @pre, "    rc = fort_argvs_in(\"$cfn\", $an, ${an}_len, *count, &c_$an);\n" .
                       "    if (rc != MPI_SUCCESS) {\n        goto out;\n    }";
            push @call, "c_$an";
            push @clean, "    fort_argvs_free(c_$an, *count);";
        } elsif ($k eq 'baseptr') {
            push @call, $an;
        } elsif ($k eq 'detach') {
            push @decl, "    void *c_$an = NULL;";
            push @call, "&c_$an";
            push @post, "    *${an}_out = c_$an;";
        }
    }
    # The C argument list in C order, with the dropped ones (MPI_Init's argc, argv) as NULL.
    my @cargs;
    my $i = 0;
    for my $c (@{ $m->{cargs} }) {
        if ($n =~ /^Init/ && $c->{name} =~ /^arg[cv]$/) { push @cargs, 'NULL' }
        else { push @cargs, $call[$i++] }
    }
    if ($n eq 'Info_get') {
        @cargs = map { $_ eq '*valuelen' ? '(*valuelen > MPI_MAX_INFO_VAL ? MPI_MAX_INFO_VAL : *valuelen)' : $_ } @cargs;
    }
    if ($n eq 'Session_get_nth_pset') {
        push @decl, "    int c_len = *pset_len > 0 ? MPI_MAX_PSET_NAME_LEN + 1 : 0;";
        @cargs = map { $_ eq 'pset_len' ? '&c_len' : $_ } @cargs;
    }
    return { decl => \@decl, pre => \@pre, call => "$cfn(" . join(', ', @cargs) . ")",
             post => \@post, clean => \@clean, fail => $fail };
}

sub entry_c {
    print <<'EOF';
/*
 * fort_entry.c - generated by fortran/gen-fortran.pl from include/mpi.h: the entry points
 * that Fortran calls (mpif.h and module mpi: mpi_xxx_; module mpi_f08, for routines with choice
 * buffers: mpi_xxx_f08_, which read the array descriptor).  See docs/fortran.md.
 *
 * Layer: fortran (above the MPI API).  Must not: call anything but the MPI C functions and
 * fortran/fort.h.
 */
#include "config.h"

#include "fortran/fort.h"

#include <stdlib.h>

EOF
    for my $m (@model) {
        next if $m->{hand} || $m->{special};
        my $n = $m->{name};
        my $ln = lc $n;
        my @params = c_params($m);
        if (is_function($m)) {
            my $rt = $m->{ret} eq 'double' ? 'double' : 'MPI_Aint';
            my @call = map { "*$_->{name}" } @{ $m->{args} };
            my $p = @params ? join(', ', @params) : 'void';
            $p =~ s/const //g;
            $p = join(', ', map { "const MPI_Aint *$_->{name}" } @{ $m->{args} }) if @{ $m->{args} };
            print "COMM_FORT_API $rt mpi_${ln}_($p);\n";
            print "$rt mpi_${ln}_($p)\n{\n    return MPI_$n(" . join(', ', @call) . ");\n}\n\n";
            next;
        }
        my $b = c_body($m);
        my $plist = join(', ', @params);
        my $args = join(', ', map { pname($_) } @params);
        my $detach = $n eq 'Buffer_detach';
        my $bplist = $detach ? "$plist, void **buffer_addr_out" : $plist;
        print "static inline void fort_${ln}($bplist)\n{\n";
        print "    int rc = MPI_SUCCESS;\n";
        print "$_\n" for @{ $b->{decl} };
        print "\n" if @{ $b->{decl} };
        print "$_\n" for @{ $b->{pre} };
        print "    rc = $b->{call};\n";
        print "$_\n" for @{ $b->{post} };
        print "out:\n" if $b->{fail};
        print "$_\n" for @{ $b->{clean} };
        print "    if (ierror != NULL) {\n        *ierror = rc;\n    }\n}\n\n";
        print "COMM_FORT_API void mpi_${ln}_($plist);\n";
        print "void mpi_${ln}_($plist)\n{\n";
        if ($detach) {
            print "    void *ignored;\n\n    fort_${ln}($args, &ignored);\n}\n\n";
        } else {
            print "    fort_${ln}($args);\n}\n\n";
        }
        next unless needs_f08_entry($m);
        # mpi_f08: choice buffers (and, in the same bind(C) interface, strings) as descriptors.
        my (@fp, @fcall, @fpre);
        my %desc;
        for my $a (@{ $m->{args} }) {
            $desc{ $a->{name} } = $a->{k} if $a->{k} eq 'choice' || $a->{k} eq 'strin' || $a->{k} eq 'strout';
        }
        for my $p (@params) {
            my $pn = pname($p);
            my $base = $pn =~ /^(\w+)_len$/ ? $1 : '';
            if ($base ne '' && $p =~ /^size_t/ && $desc{$base}) {
                push @fcall, "${base}_d->elem_len";
                next;
            }
            if ($desc{$pn}) {
                push @fp, "CFI_cdesc_t *${pn}_d";
                if ($desc{$pn} eq 'choice') {
                    my $a = (grep { $_->{name} eq $pn } @{ $m->{args} })[0];
                    if ($a->{ck} eq 'async') {
                        push @fpre, "    if (!fort_contiguous(\"MPI_$n\", \"$pn\", ${pn}_d, ierror)) {\n        return;\n    }";
                    }
                }
                push @fcall, "${pn}_d->base_addr";
                next;
            }
            if ($detach && $pn eq 'buffer_addr') {
                push @fp, 'void **buffer_addr';
                push @fcall, 'NULL';
                next;
            }
            push @fp, $p;
            push @fcall, $pn;
        }
        push @fcall, 'buffer_addr' if $detach;
        my $fpl = join(', ', @fp);
        print "COMM_FORT_API void mpi_${ln}_f08_($fpl);\n";
        print "void mpi_${ln}_f08_($fpl)\n{\n";
        print "$_\n" for @fpre;
        print "    fort_${ln}(" . join(', ', @fcall) . ");\n}\n\n";
    }
}

# ---------------------------------------------------------------------------------------------
if ($mode eq 'list') {
    print "MPI_$_->{name}\n" for grep { $_->{name} ne 'F_sync_reg' } @model;
    exit 0;
}
if ($mode eq 'consts-c') { consts_c(); exit 0 }
if ($mode eq 'entry-c') { entry_c(); exit 0 }
if ($mode eq 'mpif-tail') { mpif_tail(); exit 0 }
if ($mode eq 'mpi-mod') { mpi_mod(); exit 0 }
if ($mode eq 'mpi_f08-mod') { f08_mod(); exit 0 }
die "gen-fortran.pl: unknown mode '$mode'\n";
