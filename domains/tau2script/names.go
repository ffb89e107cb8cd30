package tau2script

import (
	"fmt"
	"strings"

	"github.com/voiceeval/schematools/replay"
)

// ScenarioSuffix is the part after "<domain>__" of the NeMo scenario name
// of a tau2 task: the id itself for airline and retail ("7"); for telecom
// ids like "[mms_issue]airplane_mode_on|data_mode_off[PERSONA:Hard]" the
// bracketed issue, the "|"-separated faults and the persona in lower case
// joined with "__" (mms_issue__airplane_mode_on__data_mode_off__hard),
// with no persona part for PERSONA:None. A test checks it against every
// shipped scenario name.
func ScenarioSuffix(taskID string) string {
	rest, ok := strings.CutPrefix(taskID, "[")
	if !ok {
		return taskID
	}
	issue, rest, ok := strings.Cut(rest, "]")
	if !ok {
		return taskID
	}
	faults, persona, ok := strings.Cut(rest, "[PERSONA:")
	if !ok || !strings.HasSuffix(persona, "]") {
		return taskID
	}
	parts := append([]string{issue}, strings.Split(faults, "|")...)
	if p := strings.ToLower(strings.TrimSuffix(persona, "]")); p != "none" {
		parts = append(parts, p)
	}
	return strings.Join(parts, "__")
}

// TaskByScenario returns the task of a scenario name's suffix (the part
// after "<domain>__"): the task whose ScenarioSuffix it is.
func (d *Domain) TaskByScenario(suffix string) (replay.Task, error) {
	for _, t := range d.Tasks {
		if ScenarioSuffix(t.ID) == suffix {
			return t, nil
		}
	}
	return replay.Task{}, fmt.Errorf("tau2script: %s has no task for scenario %s__%s", d.Name, d.Name, suffix)
}
