// The reference for ipreuse's reading of a rendered ClusterClass template (src/topology/rendered.rs):
// it reads texts exactly as Cluster API's inline patch generator reads the output of a
// `valueFrom.template` or an `enabledIf` (cluster-api
// internal/controllers/topology/cluster/patches/inline/json_patch_generator.go,
// renderValueTemplate and patchIsEnabled): `sigs.k8s.io/yaml.Unmarshal` into an
// `apiextensionsv1.JSON`, whose raw bytes are the patch value, and `enabledIf` is true when those
// bytes are exactly `true`.
//
// Input: one JSON string per line (a rendered text). Output: one JSON object per line,
// {"json": "<the value's JSON text>", "enabled": <patchIsEnabled's decision>} or {"error": "..."}.
//
// Build in GOPATH mode over Debian's packages (golang-k8s-sigs-yaml-dev, which brings
// gopkg.in/yaml.v2):
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go run tests/go/yamltojson/main.go
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"sigs.k8s.io/yaml"
)

// rawJSON is k8s.io/apiextensions-apiserver's apiextensionsv1.JSON as far as decoding goes
// (pkg/apis/apiextensions/v1/marshal.go, Apache-2.0, The Kubernetes Authors): it keeps the raw
// bytes of any value but `null`, and writes `null` when it holds none.
type rawJSON struct {
	Raw []byte
}

var nullLiteral = []byte(`null`)

func (s *rawJSON) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && !bytes.Equal(data, nullLiteral) {
		s.Raw = append(s.Raw[0:0], data...)
	}
	return nil
}

func (s rawJSON) MarshalJSON() ([]byte, error) {
	if len(s.Raw) > 0 {
		return s.Raw, nil
	}
	return []byte("null"), nil
}

type result struct {
	JSON    *string `json:"json,omitempty"`
	Enabled *bool   `json:"enabled,omitempty"`
	Error   *string `json:"error,omitempty"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	for in.Scan() {
		var text string
		if err := json.Unmarshal(in.Bytes(), &text); err != nil {
			fmt.Fprintln(os.Stderr, "input line is not a JSON string:", err)
			os.Exit(2)
		}
		var r result
		value := rawJSON{}
		if err := yaml.Unmarshal([]byte(text), &value); err != nil {
			msg := err.Error()
			r.Error = &msg
		} else {
			raw, _ := value.MarshalJSON()
			s := string(raw)
			enabled := bytes.Equal(value.Raw, []byte(`true`))
			r.JSON = &s
			r.Enabled = &enabled
		}
		if err := enc.Encode(r); err != nil {
			fmt.Fprintln(os.Stderr, "cannot write:", err)
			os.Exit(2)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "cannot read:", err)
		os.Exit(2)
	}
}
