package scheduler

import "fairsim/sim"

// shapeIDs interns request shapes as small numbers, kept on the queue's
// records (Record.shape), for the backfill cycle's scan of which records
// could start now: a CEA-Curie cycle reads some 200 records, most of a
// few shapes, and building each one's request (candOf reads its job)
// and hashing its shape into the fit memo's map was 6 % of the run.
// Within one scan nothing starts, so a shape fits or not for all its
// records.
type shapeIDs struct {
	ids  map[shapeKey]int32
	keys []shapeKey // by id (0 unused)
	// seen is per id the scan that tested it, fits its answer then.
	seen []uint32
	fits []bool
	scan uint32
}

// id is record r's shape id, interned on first use (resv: maintenance
// reservations exist).
func (m *shapeIDs) id(c *sim.Cluster, r *Record, resv bool) int32 {
	if r.shape != 0 && (r.shape < 0) == resv {
		return max(r.shape, -r.shape)
	}
	x := candOf(c, *r)
	if mayTurnWhole(c, r.Job) {
		// Its request may still become whole-node (a main pass's
		// Plan.WholeNode): its shape is not kept on the record.
		return m.intern(keyOf(&x))
	}
	id := m.intern(keyOf(&x))
	r.shape = id
	if resv {
		r.shape = -id
	}
	return id
}

// intern is shape k's number, made when first seen.
func (m *shapeIDs) intern(k shapeKey) int32 {
	id, ok := m.ids[k]
	if !ok {
		if m.ids == nil {
			m.ids = map[shapeKey]int32{}
			m.keys = append(m.keys, shapeKey{}) // ids start at 1
			m.seen = append(m.seen, 0)
			m.fits = append(m.fits, false)
		}
		id = int32(len(m.keys))
		m.ids[k] = id
		m.keys = append(m.keys, k)
		m.seen = append(m.seen, 0)
		m.fits = append(m.fits, false)
	}
	return id
}

// scanFits reports whether record r fits now, as tryAlloc answers, once
// per shape in a scan (shapes.scan).
func (s *Slurm) scanFits(c *sim.Cluster, r *Record, resv bool) bool {
	if memoOff {
		x := candOf(c, *r)
		return s.tryAlloc(c, &x, nil) == sim.FitsNow
	}
	m := &s.shapes
	id := m.id(c, r, resv)
	if m.seen[id] != m.scan {
		x := candOf(c, *r)
		fits, ok := c.FreeFits(&x.req, x.part) // the count alone, where it decides
		if !ok {
			fits = s.tryAlloc(c, &x, nil) == sim.FitsNow
		}
		m.seen[id], m.fits[id] = m.scan, fits
	}
	return m.fits[id]
}
