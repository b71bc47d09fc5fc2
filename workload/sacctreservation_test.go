package workload

import "testing"

// TestSacctReservationColumn: 22.05's sacct has no ReqReservation, only
// Reservation (the job record's resv_name, which a job that asked for one
// runs in): it is read as the reservation asked; ReqReservation, when
// present, rules; an empty field asks none.
func TestSacctReservationColumn(t *testing.T) {
	in := "JobID|JobIDRaw|State|Submit|Start|End|Elapsed|ElapsedRaw|ReqReservation|Reservation\n" +
		"1|1|COMPLETED|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:10|00:01:00|60||chem\n" +
		"2|2|COMPLETED|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:10|00:01:00|60|bio|chem\n" +
		"3|3|COMPLETED|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:10|00:01:00|60||\n"
	jobs, r, err := readSacct(t, []byte(in), SacctOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 3 {
		t.Fatalf("%d jobs, want 3 (%+v)", len(jobs), r.Stats())
	}
	nm := r.Names()
	for i, want := range []string{"chem", "bio", ""} {
		got := ""
		if jobs[i].Reservation > 0 {
			got = nm.Reservations.Name(jobs[i].Reservation - 1)
		}
		if got != want {
			t.Errorf("job %d: reservation %q, want %q", jobs[i].ID, got, want)
		}
	}
}
