package workload

import (
	"slices"
	"strings"

	"fairsim/slurmtext"
)

// parseSubmitLine takes from SubmitLine what the user asked for and
// sacct's own columns do not carry (as HPE's FastSim does): a node range,
// --exclusive, dependencies, --begin (when Eligible is missing), a
// reservation (when ReqReservation and Reservation are missing), required and excluded
// nodes. A SubmitLine the parser does not understand leaves the job as
// the other columns describe it, counted in Defaulted, so that one odd
// command line does not cost the job. It returns the parsed request for
// parseGres, or nil.
func (r *SacctReader) parseSubmitLine(l *sacctLine, j *Job, t sacctTimes) *SubmitRequest {
	if b, st := l.get(sfReqReservation); st == valOK {
		j.Reservation = 1 + r.names.Reservations.ID(string(b))
	} else if b, st := l.get(sfReservation); st == valOK {
		j.Reservation = 1 + r.names.Reservations.ID(string(b))
	}
	b, st := l.get(sfSubmitLine)
	if st != valOK {
		return nil
	}
	req, err := ParseSubmitLine(string(b))
	if err != nil {
		l.defs = append(l.defs, "SubmitLine not understood: its requests ignored")
		return nil
	}
	if req.MinNodes > 0 {
		if j.Nodes <= 0 {
			j.Nodes = req.MinNodes
			l.defs = append(l.defs, "nodes from SubmitLine -N")
		}
		j.MaxNodes = max(req.MaxNodes, j.Nodes)
	}
	j.Exclusive = req.Exclusive
	j.ArrayMaxRun = int32(req.ArrayThrottle)
	r.submitPartitions(l, j, req.Partition)
	if req.MemPerNode > 0 {
		j.MemPerNode = req.MemPerNode
		l.defs = append(l.defs, "memory per node from SubmitLine --mem")
	}
	if req.Dependency != "" {
		j.Dependency = 1 + r.names.Dependencies.ID(req.Dependency)
		deps, _, err := ParseDependency(req.Dependency)
		switch {
		case err != nil:
			l.defs = append(l.defs, "SubmitLine --dependency not understood: kept as text, no preceding job")
		default:
			if id, ok := SinglePreceding(deps); ok {
				j.Preceding, j.ThinkTime = id, 0
			}
		}
	}
	if req.Begin != "" && !t.known[tEligible] {
		if at, err := ParseBegin(req.Begin, t.v[tSubmit], r.loc); err != nil {
			l.defs = append(l.defs, "SubmitLine --begin not understood: eligible at submit")
		} else if at > t.v[tSubmit] && at-t.v[tSubmit] <= maxSacctSeconds {
			j.Eligible = at
			l.defs = append(l.defs, "Eligible from SubmitLine --begin")
		}
	}
	if req.Reservation != "" && j.Reservation == 0 {
		j.Reservation = 1 + r.names.Reservations.ID(req.Reservation)
	}
	if req.NodeList != "" {
		j.ReqNodeList = 1 + r.names.NodeLists.ID(req.NodeList)
	}
	if req.Exclude != "" {
		j.ExcNodeList = 1 + r.names.NodeLists.ID(req.Exclude)
	}
	return &req
}

// submitPartitions restores the partitions a job was submitted to (sbatch
// -p a,b) from its SubmitLine: once such a job started, sacct's Partition
// is the one it ran in, and a replay would try it there alone. The list
// is kept when it names that partition; the job is still first tried in
// the list's first, as for a pending job's "a,b". A list it cannot take
// is counted in Defaulted, the job left in sacct's partition.
func (r *SacctReader) submitPartitions(l *sacctLine, j *Job, given string) {
	if j.PartitionList != 0 || !strings.Contains(given, ",") {
		return
	}
	var parts []string
	for _, p := range strings.Split(given, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue // "-p a,,b": strtok, as slurmctld splits it, skips it
		}
		if !slurmtext.Word(p) { // a submit line's -p value is free text
			l.defs = append(l.defs, submitListIgnored)
			return
		}
		if !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	ran := r.names.Partitions.Name(j.Partition)
	if len(parts) < 2 {
		return // "-p a,a": one partition
	}
	if ran != "" && !slices.Contains(parts, ran) {
		l.defs = append(l.defs, submitListIgnored)
		return
	}
	list := strings.Join(parts, ",")
	for _, p := range parts {
		r.intern(sfPartition, &r.names.Partitions, []byte(p))
	}
	j.PartitionList = 1 + r.names.PartitionLists.ID(list)
	j.Partition = r.intern(sfPartition, &r.names.Partitions, []byte(parts[0]))
	l.defs = append(l.defs, "Partition list from SubmitLine -p (sacct names the one the job ran in)")
}

// submitListIgnored counts a SubmitLine -p list that is not partition
// names, or does not name the partition sacct gives.
const submitListIgnored = "SubmitLine -p list not taken (not partition names, or not the one sacct names): sacct's partition kept"
