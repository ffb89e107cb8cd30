package telecom

// Parameters of the agent-side tools. Every argument is required unless
// said otherwise; arguments are checked in pydantic's lax mode, so a string
// is never taken for a number or the reverse, except that gb_amount and
// limit accept numeric strings ("2" is 2.0) and booleans, as pydantic
// does.

// GetCustomerByPhoneParams are the arguments of get_customer_by_phone.
type GetCustomerByPhoneParams struct {
	PhoneNumber string `json:"phone_number" jsonschema_description:"The phone number to look up: the customer's contact number or the number of one of their lines, e.g. '555-123-2002'."`
}

// GetCustomerByIDParams are the arguments of get_customer_by_id.
type GetCustomerByIDParams struct {
	CustomerID string `json:"customer_id" jsonschema_description:"The customer's id, e.g. 'C1001'."`
}

// GetCustomerByNameParams are the arguments of get_customer_by_name.
type GetCustomerByNameParams struct {
	FullName string `json:"full_name" jsonschema_description:"The customer's full name; case does not matter."`
	DOB      string `json:"dob" jsonschema_description:"The customer's date of birth, as YYYY-MM-DD."`
}

// GetDetailsByIDParams are the arguments of get_details_by_id.
type GetDetailsByIDParams struct {
	ID string `json:"id" jsonschema_description:"An id whose first letter says what it names: C for a customer, L a line, D a device, B a bill, P a plan (e.g. 'L1002')."`
}

// GetBillsForCustomerParams are the arguments of get_bills_for_customer.
// Limit is optional (12 when absent); null is refused, as pydantic refuses
// None for it.
type GetBillsForCustomerParams struct {
	CustomerID string `json:"customer_id" jsonschema_description:"The customer's id, e.g. 'C1001'."`
	Limit      *int   `json:"limit,omitempty" jsonschema_description:"How many bills to return at most, newest first; 12 when left out."`
}

// LineParams name one line of one customer: the arguments of
// get_data_usage, resume_line, enable_roaming and disable_roaming.
type LineParams struct {
	CustomerID string `json:"customer_id" jsonschema_description:"The id of the customer who owns the line, e.g. 'C1001'."`
	LineID     string `json:"line_id" jsonschema_description:"The line's id, e.g. 'L1002'."`
}

// SuspendLineParams are the arguments of suspend_line.
type SuspendLineParams struct {
	CustomerID string `json:"customer_id" jsonschema_description:"The id of the customer who owns the line, e.g. 'C1001'."`
	LineID     string `json:"line_id" jsonschema_description:"The id of the line to suspend, e.g. 'L1002'."`
	Reason     string `json:"reason" jsonschema_description:"Why the line is suspended."`
}

// SendPaymentRequestParams are the arguments of send_payment_request.
type SendPaymentRequestParams struct {
	CustomerID string `json:"customer_id" jsonschema_description:"The customer's id, e.g. 'C1001'."`
	BillID     string `json:"bill_id" jsonschema_description:"The id of the bill to request payment for, e.g. 'B1002'."`
}

// RefuelDataParams are the arguments of refuel_data.
type RefuelDataParams struct {
	CustomerID string  `json:"customer_id" jsonschema_description:"The id of the customer who owns the line, e.g. 'C1001'."`
	LineID     string  `json:"line_id" jsonschema_description:"The id of the line to add data to, e.g. 'L1002'."`
	GBAmount   float64 `json:"gb_amount" jsonschema_description:"How much data to add, in GB; must be positive."`
}

// TransferParams are the arguments of transfer_to_human_agents.
type TransferParams struct {
	Summary string `json:"summary" jsonschema_description:"A short summary of the customer's issue for the human agent."`
}

// Parameters of the user-side tools. Most take none: any argument is
// refused.

// NoParams are the (no) arguments of the user-side tools that take none.
type NoParams struct{}

// SetNetworkModePreferenceParams are the arguments of
// set_network_mode_preference. Any string is accepted here; the tool
// itself answers an unknown mode.
type SetNetworkModePreferenceParams struct {
	Mode string `json:"mode" jsonschema_description:"The network mode to prefer: '4g_5g_preferred', '4g_only', '3g_only' or '2g_only'."`
}

// SetAPNSettingsParams are the arguments of set_apn_settings. The settings
// are checked by the tool itself against the APN model (apn_name
// 'internet' or 'broken', reset_at_reboot, mms_apn, mmsc_url, mms_proxy,
// mms_port; nothing else).
type SetAPNSettingsParams struct {
	APNSettings map[string]any `json:"apn_settings" jsonschema_description:"The new APN settings, e.g. {\"apn_name\": \"internet\", \"mmsc_url\": \"http://mms.carrier.com/mms/wapenc\"}. Settings left out take their default."`
}

// AppParams name one app: the arguments of check_app_status and
// check_app_permissions.
type AppParams struct {
	AppName string `json:"app_name" jsonschema_description:"The app's name, as check_installed_apps lists it, e.g. 'messaging'."`
}

// GrantAppPermissionParams are the arguments of grant_app_permission.
type GrantAppPermissionParams struct {
	AppName    string `json:"app_name" jsonschema_description:"The app's name, as check_installed_apps lists it, e.g. 'messaging'."`
	Permission string `json:"permission" jsonschema_description:"The permission to grant, e.g. 'sms', 'storage', 'phone' or 'network'."`
}
