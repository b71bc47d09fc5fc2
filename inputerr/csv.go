package inputerr

import (
	"encoding/csv"
	"errors"
	"io"
)

// EachCSV reads cr's records to the end, giving each with the line it
// starts on to each, which returns false to stop. A malformed record is
// reported at the line of its fault and skipped (encoding/csv resumes at
// the next record), so one bad quote does not hide the problems after
// it; reading stops once errs holds more than max problems, or at an error of the
// reader itself, reported at the line after the last record read.
func EachCSV(cr *csv.Reader, file string, errs *List, max int, each func(line int, rec []string) bool) {
	line := 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				errs.Add(file, line+1, "", err.Error())
				return
			}
			errs.Add(file, pe.Line, "", pe.Err.Error())
			if len(*errs) > max {
				return
			}
			continue
		}
		line, _ = cr.FieldPos(0) // csv returns no empty record: field 0 exists
		if !each(line, rec) {
			return
		}
	}
}
