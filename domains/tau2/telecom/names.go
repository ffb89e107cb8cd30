package telecom

// Domain is the tool domain of the tau2 telecom port: its tools,
// initialisation functions, DB-state predicates and sync applier are
// registered under it.
const Domain = "tau2_telecom"

// Names of the 13 agent-side tools. Each is at once the name the model
// sees, the registry key and the name gold actions use; the write tools
// record it as their action type.
const (
	NameGetCustomerByPhone    = "get_customer_by_phone"
	NameGetCustomerByID       = "get_customer_by_id"
	NameGetCustomerByName     = "get_customer_by_name"
	NameGetDetailsByID        = "get_details_by_id"
	NameGetBillsForCustomer   = "get_bills_for_customer"
	NameGetDataUsage          = "get_data_usage"
	NameSuspendLine           = "suspend_line"
	NameResumeLine            = "resume_line"
	NameEnableRoaming         = "enable_roaming"
	NameDisableRoaming        = "disable_roaming"
	NameSendPaymentRequest    = "send_payment_request"
	NameRefuelData            = "refuel_data"
	NameTransferToHumanAgents = "transfer_to_human_agents"
)

// Names of the 30 user-side tools: the controls of the user's simulated
// phone.
const (
	NameCheckStatusBar             = "check_status_bar"
	NameCheckNetworkStatus         = "check_network_status"
	NameCheckNetworkModePreference = "check_network_mode_preference"
	NameCheckSimStatus             = "check_sim_status"
	NameCheckDataRestrictionStatus = "check_data_restriction_status"
	NameCheckAPNSettings           = "check_apn_settings"
	NameCheckWifiStatus            = "check_wifi_status"
	NameCheckWifiCallingStatus     = "check_wifi_calling_status"
	NameCheckVPNStatus             = "check_vpn_status"
	NameCheckInstalledApps         = "check_installed_apps"
	NameCheckAppStatus             = "check_app_status"
	NameCheckAppPermissions        = "check_app_permissions"
	NameCanSendMMS                 = "can_send_mms"
	NameCheckPaymentRequest        = "check_payment_request"
	NameRunSpeedTest               = "run_speed_test"
	NameToggleAirplaneMode         = "toggle_airplane_mode"
	NameToggleData                 = "toggle_data"
	NameToggleRoaming              = "toggle_roaming"
	NameToggleDataSaverMode        = "toggle_data_saver_mode"
	NameToggleWifi                 = "toggle_wifi"
	NameToggleWifiCalling          = "toggle_wifi_calling"
	NameSetNetworkModePreference   = "set_network_mode_preference"
	NameReseatSIMCard              = "reseat_sim_card"
	NameSetAPNSettings             = "set_apn_settings"
	NameResetAPNSettings           = "reset_apn_settings"
	NameConnectVPN                 = "connect_vpn"
	NameDisconnectVPN              = "disconnect_vpn"
	NameGrantAppPermission         = "grant_app_permission"
	NameRebootDevice               = "reboot_device"
	NameMakePayment                = "make_payment"
)

// Values of the DB the tools compare with or write.
const (
	lineStatusActive            = "Active"
	lineStatusSuspended         = "Suspended"
	lineStatusPendingActivation = "Pending Activation"

	billStatusDraft           = "Draft"
	billStatusAwaitingPayment = "Awaiting Payment"
	billStatusPaid            = "Paid"
	billStatusOverdue         = "Overdue"

	statusConnected = "connected"
	statusSearching = "searching"
	statusNoService = "no_service"
	none            = "none" // no signal, no network technology

	simActive    = "active"
	simMissing   = "missing"
	simLockedPIN = "locked_pin"
	simLockedPUK = "locked_puk"

	apnInternet = "internet"
	apnBroken   = "broken"
)

// networkModes are the valid network mode preferences, in the order the
// Python original lists them.
var networkModes = [...]string{"4g_5g_preferred", "4g_only", "3g_only", "2g_only"}

// networkStatuses are the valid connection statuses.
var networkStatuses = [...]string{"connected", "searching", "no_service", "emergency_only"}

// AgentToolNames returns the names of the 13 agent-side tools, in the
// Python original's order: six reads, six writes, the transfer.
func AgentToolNames() []string {
	return []string{
		NameGetCustomerByPhone, NameGetCustomerByID, NameGetCustomerByName, NameGetDetailsByID,
		NameGetBillsForCustomer, NameGetDataUsage,
		NameSuspendLine, NameResumeLine, NameEnableRoaming, NameDisableRoaming,
		NameSendPaymentRequest, NameRefuelData,
		NameTransferToHumanAgents,
	}
}

// UserToolNames returns the names of the 30 user-side tools, in the Python
// original's order: fifteen reads, then fifteen writes.
func UserToolNames() []string {
	return []string{
		NameCheckStatusBar, NameCheckNetworkStatus, NameCheckNetworkModePreference, NameCheckSimStatus,
		NameCheckDataRestrictionStatus, NameCheckAPNSettings, NameCheckWifiStatus, NameCheckWifiCallingStatus,
		NameCheckVPNStatus, NameCheckInstalledApps, NameCheckAppStatus, NameCheckAppPermissions,
		NameCanSendMMS, NameCheckPaymentRequest, NameRunSpeedTest,
		NameToggleAirplaneMode, NameToggleData, NameToggleRoaming, NameToggleDataSaverMode,
		NameToggleWifi, NameToggleWifiCalling, NameSetNetworkModePreference, NameReseatSIMCard,
		NameSetAPNSettings, NameResetAPNSettings, NameConnectVPN, NameDisconnectVPN,
		NameGrantAppPermission, NameRebootDevice, NameMakePayment,
	}
}

// AgentActionTypes returns the action types the agent-side write tools
// record.
func AgentActionTypes() []string {
	return []string{
		NameSuspendLine, NameResumeLine, NameEnableRoaming, NameDisableRoaming,
		NameSendPaymentRequest, NameRefuelData, NameTransferToHumanAgents,
	}
}

// UserActionTypes returns the action types the user-side write tools
// record.
func UserActionTypes() []string {
	return []string{
		NameToggleAirplaneMode, NameToggleData, NameToggleRoaming, NameToggleDataSaverMode,
		NameToggleWifi, NameToggleWifiCalling, NameSetNetworkModePreference, NameReseatSIMCard,
		NameSetAPNSettings, NameResetAPNSettings, NameConnectVPN, NameDisconnectVPN,
		NameGrantAppPermission, NameRebootDevice, NameMakePayment,
	}
}
