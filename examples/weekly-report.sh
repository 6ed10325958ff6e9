#!/bin/sh
# Your week on the cluster, mailed to you every Monday morning.  In your
# crontab (crontab -e), with the toolkit and sacct on cron's short PATH:
#
#   PATH=/usr/local/bin:/usr/bin:/bin
#   0 7 * * 1  $HOME/slurmpast/examples/weekly-report.sh you@example.org
#
#   examples/weekly-report.sh --demo     prints the mail it would send
#
# The subject says whether anything needs you: slurmpast exits 1 for a
# critical failure across runs, 2 when it could not answer (then the mail
# holds its one line saying why, so a broken report is never silent).
set -u

to=${1:?usage: weekly-report.sh address | --demo}
demo=
[ "$to" = --demo ] && demo=--demo

body=$(mktemp) || exit 2
trap 'rm -f "$body"' EXIT

slurmpast $demo --top 10 --plain >"$body" 2>&1
case $? in
0) subject="slurmpast: your week, nothing critical" ;;
1) subject="slurmpast: your week, a critical finding" ;;
*) subject="slurmpast: no report this week" ;;
esac

if [ -n "$demo" ]; then
	printf 'Subject: %s\n\n' "$subject"
	cat "$body"
else
	mail -s "$subject" "$to" <"$body"
fi
