package telecom

// Parameters of the agent-side tools. Every argument is required unless
// said otherwise; arguments are checked in pydantic's lax mode, so a string
// is never taken for a number or the reverse, except that gb_amount and
// limit accept numeric strings ("2" is 2.0) and booleans, as pydantic
// does.

// GetCustomerByPhoneParams are the arguments of get_customer_by_phone.
type GetCustomerByPhoneParams struct {
	PhoneNumber string `json:"phone_number"`
}

// GetCustomerByIDParams are the arguments of get_customer_by_id.
type GetCustomerByIDParams struct {
	CustomerID string `json:"customer_id"`
}

// GetCustomerByNameParams are the arguments of get_customer_by_name.
type GetCustomerByNameParams struct {
	FullName string `json:"full_name"`
	DOB      string `json:"dob"`
}

// GetDetailsByIDParams are the arguments of get_details_by_id.
type GetDetailsByIDParams struct {
	ID string `json:"id"`
}

// GetBillsForCustomerParams are the arguments of get_bills_for_customer.
// Limit is optional (12 when absent); null is refused, as pydantic refuses
// None for it.
type GetBillsForCustomerParams struct {
	CustomerID string `json:"customer_id"`
	Limit      *int   `json:"limit,omitempty"`
}

// LineParams name one line of one customer: the arguments of
// get_data_usage, resume_line, enable_roaming and disable_roaming.
type LineParams struct {
	CustomerID string `json:"customer_id"`
	LineID     string `json:"line_id"`
}

// SuspendLineParams are the arguments of suspend_line.
type SuspendLineParams struct {
	CustomerID string `json:"customer_id"`
	LineID     string `json:"line_id"`
	Reason     string `json:"reason"`
}

// SendPaymentRequestParams are the arguments of send_payment_request.
type SendPaymentRequestParams struct {
	CustomerID string `json:"customer_id"`
	BillID     string `json:"bill_id"`
}

// RefuelDataParams are the arguments of refuel_data.
type RefuelDataParams struct {
	CustomerID string  `json:"customer_id"`
	LineID     string  `json:"line_id"`
	GBAmount   float64 `json:"gb_amount"`
}

// TransferParams are the arguments of transfer_to_human_agents.
type TransferParams struct {
	Summary string `json:"summary"`
}

// Parameters of the user-side tools. Most take none: any argument is
// refused.

// NoParams are the (no) arguments of the user-side tools that take none.
type NoParams struct{}

// SetNetworkModePreferenceParams are the arguments of
// set_network_mode_preference. Any string is accepted here; the tool
// itself answers an unknown mode.
type SetNetworkModePreferenceParams struct {
	Mode string `json:"mode"`
}

// SetAPNSettingsParams are the arguments of set_apn_settings. The settings
// are checked by the tool itself against the APN model (apn_name
// 'internet' or 'broken', reset_at_reboot, mms_apn, mmsc_url, mms_proxy,
// mms_port; nothing else).
type SetAPNSettingsParams struct {
	APNSettings map[string]any `json:"apn_settings"`
}

// AppParams name one app: the arguments of check_app_status and
// check_app_permissions.
type AppParams struct {
	AppName string `json:"app_name"`
}

// GrantAppPermissionParams are the arguments of grant_app_permission.
type GrantAppPermissionParams struct {
	AppName    string `json:"app_name"`
	Permission string `json:"permission"`
}
