package tau2script

import (
	"fmt"

	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/tool"
)

// Texts of the two-sided scripts' spoken turns.
const (
	// AgentAsks is what the agent says when the user's next gold actions
	// are due.
	AgentAsks = "Please do that on your phone now, and tell me when it's done."
	// AgentGreets opens a conversation whose first gold action is the
	// user's, or pads a short script.
	AgentGreets = "Hello, thank you for calling. How can I help you today?"
	// UserDone is what the user says after its gold actions.
	UserDone = "Okay, done. What next?"
	// UserAsks is the user's answer to a padding greeting.
	UserAsks = "Hi, I have a problem with my phone."
)

// Dual returns the scripts of both sides of a task with user-side gold
// actions (tau2 telecom), for a conversation relayed turn by turn: the
// agent plays its gold actions up to the next user action, then asks the
// user (one spoken turn); the user's model, given that turn, plays the
// user's actions up to the next agent action and says it is done; and so
// on, in the task's order, until the agent's goodbye with EndTool. Each
// side makes one response per call. The agent's script starts with a
// greeting when the first action is the user's, and with more
// greetings (each answered by the user's UserAsks) until it has at
// least MinResponses responses. Response i of each side reports the
// usage Usage(i).
func (d *Domain) Dual(task replay.Task) (agentTurns, userTurns []agenttest.Turn, err error) {
	all, err := d.gold(task)
	if err != nil {
		return nil, nil, err
	}
	// exchanges: the agent's calls then a spoken turn, answered by the
	// user's calls then a spoken turn; the last agent block ends the call.
	type exchange struct{ agent, user []agenttest.Turn }
	var ex []exchange
	var last []agenttest.Turn
	n := 0
	for i := 0; i < len(all); {
		var a, u []agenttest.Turn
		for ; i < len(all) && !all[i].user; i++ {
			n++
			a = append(a, agenttest.Turn{Calls: []tool.ModelCall{{ID: fmt.Sprintf("gold_%d", n), Name: all[i].call.Name, Arguments: all[i].call.Arguments}}})
		}
		for ; i < len(all) && all[i].user; i++ {
			n++
			u = append(u, agenttest.Turn{Calls: []tool.ModelCall{{ID: fmt.Sprintf("user_gold_%d", n), Name: all[i].call.Name, Arguments: all[i].call.Arguments}}})
		}
		if len(u) == 0 {
			last = a
			break
		}
		ask := AgentAsks
		if len(a) == 0 && len(ex) == 0 {
			ask = AgentGreets
		}
		ex = append(ex, exchange{agent: append(a, agenttest.Turn{Text: ask}), user: append(u, agenttest.Turn{Text: UserDone})})
	}
	tail := agenttest.GoldTurns(nil, EndTool)
	count := len(last) + len(tail)
	for _, e := range ex {
		count += len(e.agent)
	}
	for ; count < MinResponses; count++ {
		ex = append([]exchange{{agent: []agenttest.Turn{{Text: AgentGreets}}, user: []agenttest.Turn{{Text: UserAsks}}}}, ex...)
	}
	for _, e := range ex {
		agentTurns = append(agentTurns, e.agent...)
		userTurns = append(userTurns, e.user...)
	}
	agentTurns = append(append(agentTurns, last...), tail...)
	setUsage(agentTurns)
	setUsage(userTurns)
	return agentTurns, userTurns, nil
}
