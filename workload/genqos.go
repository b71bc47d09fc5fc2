package workload

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// QOSWeight is one QOS of a generated workload and its relative weight.
type QOSWeight struct {
	Name   string
	Weight float64
}

// QOSMix is the QOS jobs of a generated workload ask for, by weight, as
// "normal:0.85,high:0.1,standby:0.05".
type QOSMix []QOSWeight

// String is the mix as ParseQOSMix reads it.
func (m QOSMix) String() string {
	parts := make([]string, len(m))
	for i, q := range m {
		parts[i] = q.Name + ":" + strconv.FormatFloat(q.Weight, 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}

// ParseQOSMix reads "NAME:WEIGHT,..."; "" is no mix.
func ParseQOSMix(s string) (QOSMix, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var m QOSMix
	for _, item := range strings.Split(s, ",") {
		n, w, ok := strings.Cut(strings.TrimSpace(item), ":")
		if !ok {
			return nil, fmt.Errorf("QOS mix %q: want NAME:WEIGHT", item)
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(w), 64)
		if err != nil {
			return nil, fmt.Errorf("QOS mix %q: weight %q is not a number", item, w)
		}
		m = append(m, QOSWeight{strings.TrimSpace(n), f})
	}
	return m, m.validate()
}

func (m QOSMix) validate() error {
	for i, q := range m {
		if q.Name == "" || strings.ContainsAny(q.Name, ",:| \t") {
			return fmt.Errorf("QOS mix: name %q must be a QOS name", q.Name)
		}
		if !(q.Weight > 0) || math.IsInf(q.Weight, 0) {
			return fmt.Errorf("QOS mix: %s weight %v must be positive", q.Name, q.Weight)
		}
		for _, p := range m[:i] {
			if strings.EqualFold(p.Name, q.Name) {
				return fmt.Errorf("QOS mix: %s given twice", q.Name)
			}
		}
	}
	return nil
}

// Set implements flag.Value, for command-line flags.
func (m *QOSMix) Set(s string) error {
	v, err := ParseQOSMix(s)
	if err != nil {
		return err
	}
	*m = v
	return nil
}
