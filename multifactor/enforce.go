package multifactor

import (
	"slices"
	"strings"

	"fairsim/sim"
)

// Reasons of jobs refused by AccountingStorageEnforce=associations and
// qos, as slurm_protocol_defs.c names FAIL_ACCOUNT and FAIL_QOS.
const (
	ReasonInvalidAccount = "InvalidAccount"
	ReasonInvalidQOS     = "InvalidQOS"
)

// invalidAssoc is job_mgr.c's check of a job's association and QOS at
// submit. With "associations" a job whose (account, user, partition)
// has no association is refused (_job_create: assoc_mgr_fill_in_assoc
// fails under ACCOUNTING_ENFORCE_ASSOCS, ESLURM_INVALID_ACCOUNT). With
// "qos" a job of an association whose QOS list lacks the job's QOS is
// refused (_determine_and_validate_qos, ESLURM_INVALID_QOS); a job
// without an association, or without a QOS fairsim knows, is not judged
// there, as Slurm checks the QOS only against an association.
func (m *Policy) invalidAssoc(j *sim.Job) string {
	if j.Assoc < 0 {
		if m.cfg.EnforceAssocs {
			return ReasonInvalidAccount
		}
		return ""
	}
	if !m.cfg.EnforceQOS || j.QOSIdx < 0 || m.cfg.QOS == nil {
		return ""
	}
	if q, known := m.validQOS(j.Assoc); known && !slices.Contains(q, strings.ToLower(m.cfg.QOS.QOS(j.QOSIdx).Name)) {
		return ReasonInvalidQOS
	}
	return ""
}

// validQOS is association a's QOS list (Tree.ValidQOS), kept per
// association: it is asked at every submit. known is false when no
// association of the tree lists QOS (a tree built from a generator,
// from shares, or from a listing without the QOS column): fairsim then
// cannot tell what slurmdbd holds, and judges no QOS.
func (m *Policy) validQOS(a int) (q []string, known bool) {
	if m.qosOf == nil {
		m.qosOf = map[int][]string{}
	}
	if !m.cfg.Tree.HasQOSLists() {
		return nil, false
	}
	if q, ok := m.qosOf[a]; ok {
		return q, true
	}
	q, _ = m.cfg.Tree.ValidQOS(a)
	m.qosOf[a] = q
	return q, true
}
