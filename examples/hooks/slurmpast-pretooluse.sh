#!/bin/sh
# A PreToolUse hook for coding agents that run shell commands (Claude
# Code, Codex): before a command runs, each sbatch in it is checked
# against its workload's history (sp-submit --check), and the call is
# blocked (exit 2, the reason on standard error, which the agent reads)
# only when a submission repeats a failure.  Anything that goes wrong
# here lets the call run (exit 0) with a note: the hook never stands
# between the agent and its work because slurmpast could not answer.
#
# The JSON is read by sp-submit --hook itself: no jq needed.  Setting
# SLURMPAST_TIMEOUT bounds how long a check waits for sacct; keep it
# under the hook's own timeout in the agent's settings.
: "${SLURMPAST_TIMEOUT:=20}"
export SLURMPAST_TIMEOUT
if ! command -v sp-submit >/dev/null 2>&1; then
	echo "slurmpast hook: sp-submit is not on PATH: the call runs unchecked" >&2
	exit 0
fi
sp-submit --hook
status=$?
case $status in
0 | 2) exit "$status" ;;
esac
echo "slurmpast hook: sp-submit --hook ended with status $status: the call runs unchecked" >&2
exit 0
