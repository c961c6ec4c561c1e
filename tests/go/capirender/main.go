// capirender renders Go templates as Cluster API renders a ClusterClass patch's
// `valueFrom.template` and `enabledIf`, for tests/it/go_templates.rs (ipreuse's differential
// test against Go itself).
//
// It follows, step for step, `renderValueTemplate`, `calculateTemplateData` and `patchIsEnabled`
// of kubernetes-sigs/cluster-api, internal/controllers/topology/cluster/patches/inline/
// json_patch_generator.go (read at commit 0ca8d561e973418b5f228de1448be378c8d98954;
// Copyright 2021 The Kubernetes Authors, Apache License 2.0,
// http://www.apache.org/licenses/LICENSE-2.0): parse with
// template.New("tpl").Funcs(sprig.HermeticTxtFuncMap()), execute with the variables marshalled
// to JSON and unmarshalled into map[string]interface{}, read the output with sigs.k8s.io/yaml's
// Unmarshal into an apiextensionsv1.JSON (here `rawJSON`, the same UnmarshalJSON), and call
// enabledIf true when that JSON is exactly `true`. The error wrapping of CAPI is left out: the
// test compares whether there is an error, not its words.
//
// Differences from CAPI's build, which the test keeps in mind: this builds with Debian's Go
// (1.19 in bookworm) where CAPI builds with a newer Go (1.24 and later range over an integer,
// `{{ range 3 }}`, which 1.19 refuses), and Debian's sprig 3.2.3 and sigs.k8s.io/yaml 1.3.0
// (go-yaml v2 underneath, as in CAPI).
//
// Protocol: one JSON object a line on stdin, {"template": "...", "variables": {...}}; one JSON
// object a line on stdout for each: {"output": "..."} and then either {"value": <JSON or null>,
// "enabled": bool} or {"yaml_error": "..."}, or {"error": "..."} when parsing or executing
// fails (no output then). Build in GOPATH mode (no module proxy):
//
//	GO111MODULE=off GOPATH=<dir with src/github.com/Masterminds/{sprig,semver}/v3 symlinks>:/usr/share/gocode \
//	    go build -o capirender ./tests/go/capirender
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"text/template"

	"github.com/Masterminds/sprig/v3"
	"sigs.k8s.io/yaml"
)

// rawJSON is apiextensionsv1.JSON as far as unmarshalling goes (k8s.io/apiextensions-apiserver,
// pkg/apis/apiextensions/v1/marshal.go): a JSON null leaves Raw empty.
type rawJSON struct {
	Raw []byte
}

func (s *rawJSON) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && !bytes.Equal(data, []byte("null")) {
		s.Raw = append(s.Raw[0:0], data...)
	}
	return nil
}

type request struct {
	Template  string                     `json:"template"`
	Variables map[string]json.RawMessage `json:"variables"`
}

type response struct {
	Output    *string          `json:"output,omitempty"`
	Value     *json.RawMessage `json:"value,omitempty"`
	Null      bool             `json:"null,omitempty"`
	Enabled   *bool            `json:"enabled,omitempty"`
	YAMLError string           `json:"yaml_error,omitempty"`
	Error     string           `json:"error,omitempty"`
}

// templateData is calculateTemplateData: the variables through json.Marshal and json.Unmarshal.
func templateData(variables map[string]json.RawMessage) (map[string]interface{}, error) {
	res := make(map[string]interface{}, len(variables))
	tmp, err := json.Marshal(variables)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(tmp, &res); err != nil {
		return nil, err
	}
	return res, nil
}

func render(req request) (resp response) {
	// A panic in a function (sprig has a few) is an error for the case, not the end of the run.
	defer func() {
		if r := recover(); r != nil {
			resp = response{Error: fmt.Sprintf("panic: %v", r)}
		}
	}()
	tpl, err := template.New("tpl").Funcs(sprig.HermeticTxtFuncMap()).Parse(req.Template)
	if err != nil {
		return response{Error: "parse: " + err.Error()}
	}
	data, err := templateData(req.Variables)
	if err != nil {
		return response{Error: "data: " + err.Error()}
	}
	var buf bytes.Buffer
	if err := tpl.Execute(&buf, data); err != nil {
		return response{Error: "execute: " + err.Error()}
	}
	out := buf.String()
	resp.Output = &out
	value := rawJSON{}
	if err := yaml.Unmarshal(buf.Bytes(), &value); err != nil {
		resp.YAMLError = err.Error()
		return resp
	}
	if len(value.Raw) == 0 {
		resp.Null = true
	} else {
		raw := json.RawMessage(value.Raw)
		resp.Value = &raw
	}
	enabled := bytes.Equal(value.Raw, []byte(`true`))
	resp.Enabled = &enabled
	return resp
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	for in.Scan() {
		var req request
		var resp response
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			resp = response{Error: "request: " + err.Error()}
		} else {
			resp = render(req)
		}
		if err := enc.Encode(resp); err != nil {
			fmt.Fprintln(os.Stderr, "capirender:", err)
			os.Exit(2)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "capirender:", err)
		os.Exit(2)
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "capirender:", err)
		os.Exit(2)
	}
}
