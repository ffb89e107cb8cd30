package evaairline

// The parameter models of the tools, fields in the original's order.
var (
	modelGetReservation         = []field{req("confirmation_number", confirmationNumber), str("last_name")}
	modelGetFlightStatus        = []field{req("flight_number", flightNumberStr), req("flight_date", dateStr)}
	modelGetDisruptionInfo      = []field{req("flight_number", flightNumberStr), req("date", dateStr)}
	modelSearchRebookingOptions = []field{
		req("origin", airportCode), req("destination", airportCode), req("date", dateStr),
		integer("passenger_count", i64(1), nil), enum("fare_class", fareClassesOrAny...),
	}
	modelRebookFlight = []field{
		req("confirmation_number", confirmationNumber), req("journey_id", journeyIDStr),
		req("new_journey_id", journeyIDStr), enum("rebooking_type", rebookingTypes...),
		boolean("waive_change_fee"), optEnum("new_fare_class", fareClasses...), opt("flight_number", flightNumberStr),
	}
	modelAddToStandby = []field{
		req("confirmation_number", confirmationNumber), req("journey_id", journeyIDStr), passengerList("passenger_ids"),
	}
	modelAssignSeat = []field{
		req("confirmation_number", confirmationNumber), req("passenger_id", passengerIDStr),
		req("journey_id", journeyIDStr), enum("seat_preference", seatPreferences...), opt("flight_number", flightNumberStr),
	}
	modelAddBaggageAllowance = []field{
		req("confirmation_number", confirmationNumber), req("journey_id", journeyIDStr),
		integer("num_bags", i64(0), i64(5)), opt("flight_number", flightNumberStr),
	}
	modelAddMealRequest = []field{
		req("confirmation_number", confirmationNumber), req("passenger_id", passengerIDStr),
		req("journey_id", journeyIDStr), enum("meal_type", mealTypes...), opt("flight_number", flightNumberStr),
	}
	modelIssueTravelCredit = []field{
		req("confirmation_number", confirmationNumber), req("passenger_id", passengerIDStr),
		positive("amount"), enum("credit_reason", creditReasons...),
	}
	modelIssueHotelVoucher = []field{
		req("confirmation_number", confirmationNumber), req("passenger_id", passengerIDStr),
		integer("num_nights", i64(1), nil),
	}
	modelIssueMealVoucher = []field{
		req("confirmation_number", confirmationNumber), req("passenger_id", passengerIDStr),
		enum("voucher_reason", voucherReasons...),
	}
	modelCancelReservation = []field{
		req("confirmation_number", confirmationNumber), req("journey_id", journeyIDStr),
		enum("cancellation_reason", cancelReasons...),
	}
	modelProcessRefund = []field{
		req("confirmation_number", confirmationNumber), positive("refund_amount"), enum("refund_type", refundTypes...),
	}
	modelTransferToAgent = []field{
		req("confirmation_number", confirmationNumber), str("transfer_reason"), str("issue_summary"),
	}
)

// optEnum is an optional enum field (E | None = None).
func optEnum(name string, values ...string) field {
	f := enum(name, values...)
	f.optional = true
	return f
}
