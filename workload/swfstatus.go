package workload

// SWF status codes (field 11 of the Standard Workload Format), named so
// that readers, writers and the simulator compare Job.Status with words
// rather than bare numbers. Unset means unknown.
const (
	StatusFailed        = 0 // ended abnormally (failed, timed out, node failure, ...)
	StatusCompleted     = 1 // ended normally
	StatusPartial       = 2 // a partial execution, to be continued (checkpointed)
	StatusPartialLast   = 3 // the last partial execution of a job that completed
	StatusPartialFailed = 4 // the last partial execution of a job that failed
	StatusCancelled     = 5 // cancelled, before or after it started
)
