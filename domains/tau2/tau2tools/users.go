package tau2tools

import (
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/tool"
)

// TableUsers is the users table of the airline and retail DBs, keyed by
// user id (lower case in the tau2 data).
const TableUsers = "users"

// FindUser returns the user whose id is key, matched lower-cased as
// NeMo's tools match it (speech recognition rarely keeps the case of an
// id), or nil when there is none. key may be any JSON value: a user id
// read from a reservation or an order is looked up with Python's
// semantics (see GetFolded).
func FindUser(db map[string]any, key any) (any, error) {
	users, err := GetDict(db, TableUsers)
	if err != nil {
		return nil, err
	}
	return GetFolded(users, key, pyvalue.Lower, "lower")
}

// PaymentMethods is Python's (user.get("payment_methods") or {}) for a
// user record: the user's payment methods by id. A user that is not a
// dict is an AttributeError.
func PaymentMethods(user any) (map[string]any, error) {
	u, err := AsDict(user)
	if err != nil {
		return nil, err
	}
	return GetDictOr(u, "payment_methods")
}

// GetUserDetailsParams are the arguments of get_user_details.
type GetUserDetailsParams struct {
	UserID string `json:"user_id"`
}

// NewGetUserDetails builds get_user_details, the same tool in the
// airline and retail domains (GetUserDetailsTool), presenting domain's
// original texts (New): the user id is matched lower-cased (FindUser) and the
// result is a copy of the user record, or not_found "User <id> not found"
// naming the id as given.
func NewGetUserDetails(domain string, opts *tool.Options) (*tool.Typed[GetUserDetailsParams], error) {
	return NewReadTool(domain, NameGetUserDetails, func(db map[string]any, p GetUserDetailsParams) (any, error) {
		user, err := FindUser(db, p.UserID)
		return Found(user, err, "User "+p.UserID+" not found")
	}, opts)
}
