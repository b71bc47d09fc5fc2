package config

import _ "embed"

//go:embed default.yaml
var defaultYAML []byte

// Default returns the embedded default scenario, so `fairsim run` works on
// a fresh clone with no file outside the repository.
func Default() (*Scenario, error) {
	return Parse(defaultYAML, "default scenario (embedded)")
}
