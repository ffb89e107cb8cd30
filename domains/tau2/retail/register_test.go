package retail_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/tau2/internal/tau2test"
	"github.com/voiceeval/schematools/domains/tau2/retail"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

var names = map[string]string{
	"find_user_id_by_name_zip":       "FindUserIdByNameZipTool",
	"find_user_id_by_email":          "FindUserIdByEmailTool",
	"get_order_details":              "GetOrderDetailsTool",
	"get_product_details":            "GetProductDetailsTool",
	"get_item_details":               "GetItemDetailsTool",
	"get_user_details":               "GetUserDetailsTool",
	"list_all_product_types":         "ListAllProductTypesTool",
	"cancel_pending_order":           "CancelPendingOrderTool",
	"exchange_delivered_order_items": "ExchangeDeliveredOrderItemsTool",
	"modify_pending_order_address":   "ModifyPendingOrderAddressTool",
	"modify_pending_order_items":     "ModifyPendingOrderItemsTool",
	"modify_pending_order_payment":   "ModifyPendingOrderPaymentTool",
	"modify_user_address":            "ModifyUserAddressTool",
	"return_delivered_order_items":   "ReturnDeliveredOrderItemsTool",
	"calculate":                      "CalculateTool",
	"transfer_to_human_agents":       "TransferToHumanAgentsTool",
}

func TestToolsAndRegister(t *testing.T) {
	st := state.New()
	set := tau2test.RequireToolSet(t, retail.Domain, retail.Tools, retail.Register, names, st)
	assert.Equal(t, []string{"cancel_pending_order", "exchange_delivered_order_items", "modify_pending_order_address", "modify_pending_order_items",
		"modify_pending_order_payment", "modify_user_address", "return_delivered_order_items", "transfer_to_human_agents"}, retail.ActionTypes())

	// The set's tools work on the scenario's state, on the live path; a
	// domain error is delivered as it is.
	st.SetDB(newDB(t))
	assert.Equal(t, retail.FoundUserResult{Status: "success", UserID: "yusuf_rossi_9620"},
		tau2test.CallSet(t, set, "FindUserIdByEmailTool", `{"email": "YUSUF.ROSSI7301@example.com"}`))
	assert.Equal(t, notFound("Order #W0 not found"), tau2test.CallSet(t, set, "GetOrderDetailsTool", `{"order_id": "#W0"}`))
}

// TestSchemas pins what the model sees of each tool: properties in the
// Python original's order, all required, the cancellation reasons as an
// enum, string arrays for item ids.
func TestSchemas(t *testing.T) {
	m, err := retail.Tools(replay.Env{Domain: retail.Domain, Agent: state.New()})
	require.NoError(t, err)
	address := []string{"address1", "address2", "city", "state", "country", "zip"}
	order := map[string][]string{
		"find_user_id_by_name_zip":       {"first_name", "last_name", "zip"},
		"find_user_id_by_email":          {"email"},
		"get_order_details":              {"order_id"},
		"get_product_details":            {"product_id"},
		"get_item_details":               {"item_id"},
		"get_user_details":               {"user_id"},
		"list_all_product_types":         {},
		"cancel_pending_order":           {"order_id", "reason"},
		"exchange_delivered_order_items": {"order_id", "item_ids", "new_item_ids", "payment_method_id"},
		"modify_pending_order_address":   append([]string{"order_id"}, address...),
		"modify_pending_order_items":     {"order_id", "item_ids", "new_item_ids", "payment_method_id"},
		"modify_pending_order_payment":   {"order_id", "payment_method_id"},
		"modify_user_address":            append([]string{"user_id"}, address...),
		"return_delivered_order_items":   {"order_id", "item_ids", "payment_method_id"},
		"calculate":                      {"expression"},
		"transfer_to_human_agents":       {"summary"},
	}
	tau2test.RequireSchemas(t, m, order)
	b, err := json.Marshal(tool.Schema(m["cancel_pending_order"]).Parameters.Properties)
	require.NoError(t, err)
	var props map[string]map[string]any
	require.NoError(t, json.Unmarshal(b, &props))
	assert.Equal(t, []any{"no longer needed", "ordered by mistake"}, props["reason"]["enum"])
	assert.Equal(t, "string", props["reason"]["type"])

	b, err = json.Marshal(tool.Schema(m["exchange_delivered_order_items"]).Parameters.Properties)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &props))
	assert.Equal(t, "array", props["new_item_ids"]["type"])
	assert.Equal(t, map[string]any{"type": "string"}, props["new_item_ids"]["items"])
}

// Arguments are validated as pydantic's lax mode does, in declaration
// order, before any work: a string is never coerced from a number, a
// string is not a list, and unknown keys are refused.
func TestArgumentValidation(t *testing.T) {
	f := newFixture(t, newDB(t))
	res := f.Call(t, retail.KeyExchangeDeliveredOrderItems, map[string]any{"order_id": 7, "item_ids": "6469567736", "payment_method_id": "x", "extra": 1})
	require.IsType(t, tool.ValidationResult{}, res)
	var got [][2]string
	for _, d := range res.(tool.ValidationResult).Details {
		got = append(got, [2]string{d.Field, d.Type})
	}
	assert.Equal(t, [][2]string{{"order_id", "string_type"}, {"item_ids", "list_type"}, {"new_item_ids", "missing"}, {"extra", "extra_forbidden"}}, got)
	res = f.Call(t, retail.KeyReturnDeliveredOrderItems, map[string]any{"order_id": "#W2378156", "item_ids": []any{"1", 2}, "payment_method_id": "x"})
	require.IsType(t, tool.ValidationResult{}, res)
	assert.Equal(t, "item_ids.1", res.(tool.ValidationResult).Details[0].Field)
	assert.Empty(t, f.State.Actions())
}
