package workflow

import (
	"runtime/debug"
	"testing"
)

func TestVersionOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"a go build in a checkout", debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "d79eb74f00112233445566778899aabbccddeeff"},
				{Key: "vcs.time", Value: "2025-11-24T09:00:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			"devel commit d79eb74f0011 (modified) of 2025-11-24T09:00:00Z, go1.26"},
		{"go install of a tag", debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Version: "v1.2.0"}}, "v1.2.0, go1.26"},
	} {
		if got := versionOf(&tc.bi); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
