package slurmtext

import (
	"io"
	"strings"
	"testing"
)

func TestSkipBOM(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"\xef\xbb\xbfuser,account\n", "user,account\n"},
		{"user,account\n", "user,account\n"},
		{"\xef\xbb", "\xef\xbb"}, // shorter than a mark: kept as it is
		{"", ""},
		{"a\xef\xbb\xbf", "a\xef\xbb\xbf"}, // only at the start
	} {
		b, err := io.ReadAll(SkipBOM(strings.NewReader(tc.in)))
		if err != nil || string(b) != tc.want {
			t.Errorf("SkipBOM(%q) = %q, %v; want %q", tc.in, b, err, tc.want)
		}
	}
}
