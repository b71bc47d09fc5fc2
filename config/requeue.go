package config

import (
	"fmt"
	"strconv"
	"strings"

	"fairsim/slurmconf"
)

// timeLimitTick is controller.c's PERIODIC_TIMEOUT: its background loop
// checks time limits (job_time_limit) every 30 s.
const timeLimitTick = 30

// requeueDelay is how long a requeued job waits before it is eligible
// again: job_mgr.c batch_requeue_fini sets its begin time to now + the
// job credential's lifetime + 1, and that lifetime is AuthInfo's
// cred_expire (slurm_cred.c: default 120 s, at least 5).
func requeueDelay(conf *slurmconf.Config) (int64, error) {
	info := conf.Extra["AuthInfo"]
	i := strings.Index(info, "cred_expire=")
	if i < 0 {
		return 120 + 1, nil
	}
	v := info[i+len("cred_expire="):]
	if j := strings.IndexByte(v, ','); j >= 0 {
		v = v[:j]
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
	if err != nil || n < 5 {
		return 0, fmt.Errorf("%s: AuthInfo cred_expire=%s: want a whole number of seconds, at least 5", conf.Where("AuthInfo"), v)
	}
	return n + 1, nil
}
