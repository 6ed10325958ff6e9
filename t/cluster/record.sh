#!/bin/bash
# record.sh DIR - what this cluster's Slurm answers, for make check to
# read without it: run on the private cluster of up.sh once mix.sh has
# run (versions.sh runs it in each chroot).  Writes into DIR:
#
#   helpformat.txt        sacct --helpformat
#   version.txt           sacct --version's output and exit status (26.05
#                         fails without a readable slurm.conf)
#   mix-fields.txt        the --format list: the fields of
#                         t/data/slurm-22.05/mix-fields.txt, StdOut,
#                         StdErr, ReqGRES, AllocGRES, Planned and 26.05's
#                         new Exclusive, OriginalSLUID, OverSubscribe,
#                         ReqReservation and SegmentSize, those this sacct
#                         lists (Reserved where Planned is not)
#   mix-pipe.txt          sacct --parsable2 -D --allusers -j IDS, header
#   mix-us.txt            the same with --delimiter=0x1F
#   mix-us-noheader.txt   the same with --noheader
#   manifest.tsv          mix.sh's manifest
#   slurm-version         the version, for the directory's name
#
# as sp-fetch runs sacct: SLURM_TIME_FORMAT=standard, LC_ALL=C, no
# SACCT_FORMAT.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
out=${1:?usage: record.sh DIR}

[ -s "$SPC/manifest.tsv" ] || spc_die "no $SPC/manifest.tsv: run mix.sh first"
mkdir -p "$out"
export SLURM_TIME_FORMAT=standard LC_ALL=C
unset SACCT_FORMAT SQUEUE_FORMAT

sacct --helpformat >"$out/helpformat.txt"
{
	sacct --version 2>&1 && echo "exit 0" || echo "exit $?"
} >"$out/version.txt"
# The version from the packages when sacct will not say it.
v=$(sacct --version 2>/dev/null | awk '{ print $2 }') ||
	v=
[ -n "$v" ] || v=$(dpkg-query -W -f '${Version}' slurm-client 2>/dev/null |
	sed 's/-.*//')
[ -n "$v" ] || spc_die "cannot tell this Slurm's version"
echo "$v" >"$out/slurm-version"

listed() {
	tr -s ' \n' '\n\n' <"$out/helpformat.txt" | grep -qix "$1"
}
fields=
for f in $(tr , ' ' <"$here/../data/slurm-22.05/mix-fields.txt") \
    StdOut StdErr ReqGRES AllocGRES Planned \
    Exclusive OriginalSLUID OverSubscribe ReqReservation SegmentSize; do
	[ "$f" = Reserved ] && listed Planned && continue
	listed "$f" || continue
	case ",$fields," in *",$f,"*) continue ;; esac
	fields=${fields:+$fields,}$f
done
echo "$fields" >"$out/mix-fields.txt"

ids=$(awk -F'\t' 'NR > 1 { print $2 }' "$SPC/manifest.tsv" | sort -u |
	paste -sd, -)
set -- --parsable2 -D --allusers -j "$ids" --format="$fields"
sacct "$@" >"$out/mix-pipe.txt"
sacct "$@" --delimiter=$'\x1f' >"$out/mix-us.txt"
sacct "$@" --delimiter=$'\x1f' --noheader >"$out/mix-us-noheader.txt"
cp "$SPC/manifest.tsv" "$out/manifest.tsv"
spc_log "recorded Slurm $v into $out"
