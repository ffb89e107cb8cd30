package telecom

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"

	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// set_apn_settings checks its settings against the phone's APN model
// itself, as the Python tool does, and stores them as the model dumps
// them: every field, with defaults for those left out.

// apnFields are the APN settings other than apn_name, decoded in
// pydantic's lax mode. A nil pointer is a field left out or null; the raw
// settings tell the two apart.
type apnFields struct {
	ResetAtReboot *bool   `json:"reset_at_reboot,omitempty"`
	MMSAPN        *string `json:"mms_apn,omitempty"`
	MMSCURL       *string `json:"mmsc_url,omitempty"`
	MMSProxy      *string `json:"mms_proxy,omitempty"`
	MMSPort       *int    `json:"mms_port,omitempty"`
}

// apnOrder is the APN model's field order.
var apnOrder = []string{"apn_name", "reset_at_reboot", "mms_apn", "mmsc_url", "mms_proxy", "mms_port"}

// apnDecoder checks apnFields; it is built once and only decodes.
var apnDecoder = sync.OnceValues(func() (*tool.Typed[apnFields], error) {
	return tool.New("apn_settings", "The APN settings model.",
		func(context.Context, *state.Shared, apnFields) (any, error) { return nil, nil }, &tool.Options{Lax: true})
})

// apnSettings checks settings as pydantic checks them against the APN
// model — apn_name 'internet' or 'broken', reset_at_reboot a boolean, the
// MMS fields strings or null, mms_port an integer or null, nothing else —
// and returns them as the model dumps them, or the invalid_arguments
// result naming the model "APNSettings".
func apnSettings(in map[string]any) (map[string]any, *tool.FailureResult) {
	dec, err := apnDecoder()
	if err != nil { // cannot happen: apnFields is a valid parameters type
		fail := tool.Failure(ErrorTypeInvalidArguments, err.Error())
		return nil, &fail
	}
	var issues []tool.Issue
	name, hasName := in["apn_name"]
	if hasName && name != apnInternet && name != apnBroken {
		issues = append(issues, tool.Issue{Field: "apn_name", Error: "Input should be 'internet' or 'broken'", Type: "enum"})
	}
	if v, ok := in["reset_at_reboot"]; ok && v == nil {
		issues = append(issues, tool.Issue{Field: "reset_at_reboot", Error: "Input should be a valid boolean", Type: "bool_type"})
	}
	rest := make(map[string]any, len(in))
	for k, v := range in {
		if k != "apn_name" {
			rest[k] = v
		}
	}
	f, vr := dec.Decode(rest)
	if vr != nil || len(issues) > 0 {
		var more []tool.Issue
		if vr != nil {
			more = vr.Details
		}
		fail := invalidArguments("APNSettings", in, mergeIssues(apnOrder, more, issues))
		return nil, &fail
	}
	out := defaultAPNSettings()
	if hasName {
		out["apn_name"] = name
	}
	if f.ResetAtReboot != nil {
		out["reset_at_reboot"] = *f.ResetAtReboot
	}
	optional := func(key string, v *string) {
		if _, ok := in[key]; ok {
			out[key] = nil
			if v != nil {
				out[key] = *v
			}
		}
	}
	optional("mms_apn", f.MMSAPN)
	optional("mmsc_url", f.MMSCURL)
	optional("mms_proxy", f.MMSProxy)
	if _, ok := in["mms_port"]; ok && f.MMSPort != nil {
		out["mms_port"] = json.Number(strconv.Itoa(*f.MMSPort))
	}
	return out, nil
}
