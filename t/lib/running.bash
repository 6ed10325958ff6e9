# running.bash - sacct and sstat faked (t/fake) with the history of
# t/fake/running-history.psv: a workload's three completed runs and one
# killed for memory, then three jobs running now, which
# t/fake/running-history-sstat.psv reads live (t/sp-size-running.bats
# says what each is).  For the bats files about running jobs:
#
#	load lib/running
#	setup() { fake_running_history; }

fake_running_history() {
	PATH="$SP_TOP/t/fake:$PATH"
	FAKE_SACCT_ROWS=$SP_TOP/t/fake/running-history.psv
	FAKE_SSTAT_ROWS=$SP_TOP/t/fake/running-history-sstat.psv
	SLURMPAST_NO_SITE=1
	SLURMPAST_NO_CACHE=1
	export PATH FAKE_SACCT_ROWS FAKE_SSTAT_ROWS SLURMPAST_NO_SITE \
		SLURMPAST_NO_CACHE
	unset FAKE_SACCT_MODE FAKE_SSTAT_MODE FAKE_SSTAT_ERR SLURMPAST_TIMEOUT
}
