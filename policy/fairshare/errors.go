package fairshare

import "fairsim/inputerr"

// Error is one problem found in an input file, "file:line: field: message".
type Error = inputerr.Error

// maxErrors bounds an ErrorList (see inputerr.MaxErrors).
const maxErrors = inputerr.MaxErrors

// ErrorList collects every problem of an input so that a reader fails once
// with all of them instead of stopping at the first.
type ErrorList = inputerr.List
