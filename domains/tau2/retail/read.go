package retail

import (
	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/tool"
)

// messageUserNotFoundByName is find_user_id_by_name_zip's not_found message.
const messageUserNotFoundByName = "User not found"

// FoundUserResult is the result of find_user_id_by_name_zip and
// find_user_id_by_email.
type FoundUserResult struct {
	Status string `json:"status"`
	UserID string `json:"user_id"`
}

// NewFindUserIDByNameZip builds find_user_id_by_name_zip
// (FindUserIdByNameZipTool): the id of the first user whose first and last
// names equal the arguments case-insensitively (Python's str.lower on both
// sides) and whose zip code equals the argument exactly, as
// {"status": "success", "user_id": …}; or not_found "User not found".
// Users are walked in user-id order (see docs/parity/domains-tau2-retail.md,
// "Lookups that take the first match", for why that
// gives Python's answers on the tau2 data).
func NewFindUserIDByNameZip(opts *tool.Options) (*tool.Typed[FindUserIDByNameZipParams], error) {
	return tau2tools.NewReadTool(Domain, NameFindUserIDByNameZip,
		func(db map[string]any, p FindUserIDByNameZipParams) (any, error) {
			first, last := pyvalue.Lower(p.FirstName), pyvalue.Lower(p.LastName)
			return findUserID(db, func(user map[string]any) (bool, error) {
				name, err := tau2tools.GetDictOr(user, "name")
				if err != nil {
					return false, err
				}
				address, err := tau2tools.GetDictOr(user, "address")
				if err != nil {
					return false, err
				}
				for _, want := range [...]struct{ key, value string }{{"first_name", first}, {"last_name", last}} {
					got, err := lowerAt(name, want.key)
					if err != nil || got != want.value {
						return false, err
					}
				}
				zip := address["zip"]
				if !pyvalue.Truthy(zip) {
					zip = ""
				}
				return pyvalue.Equal(zip, p.Zip), nil
			})
		}, opts)
}

// NewFindUserIDByEmail builds find_user_id_by_email
// (FindUserIdByEmailTool): the id of the first user whose email equals the
// argument case-insensitively, as {"status": "success", "user_id": …}; or
// not_found "User not found".
func NewFindUserIDByEmail(opts *tool.Options) (*tool.Typed[FindUserIDByEmailParams], error) {
	return tau2tools.NewReadTool(Domain, NameFindUserIDByEmail,
		func(db map[string]any, p FindUserIDByEmailParams) (any, error) {
			email := pyvalue.Lower(p.Email)
			return findUserID(db, func(user map[string]any) (bool, error) {
				got, err := lowerAt(user, "email")
				return err == nil && got == email, err
			})
		}, opts)
}

// findUserID walks the users in user-id order and answers with the id of
// the first one match accepts.
func findUserID(db map[string]any, match func(user map[string]any) (bool, error)) (any, error) {
	users, err := tableOf(db, tableUsers, "items")
	if err != nil {
		return nil, err
	}
	for _, id := range tau2tools.SortedKeys(users) {
		user, err := tau2tools.AsDict(users[id])
		if err != nil {
			return nil, err
		}
		ok, err := match(user)
		if err != nil {
			return nil, err
		}
		if ok {
			return FoundUserResult{Status: tau2tools.Success, UserID: id}, nil
		}
	}
	return tau2tools.NotFound(messageUserNotFoundByName), nil
}

// lowerAt is Python's (d.get(key) or "").lower().
func lowerAt(d map[string]any, key string) (string, error) {
	v := d[key]
	if !pyvalue.Truthy(v) {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", tau2tools.Raise("AttributeError", "'%s' object has no attribute 'lower'", pyvalue.TypeName(v))
	}
	return pyvalue.Lower(s), nil
}

// NewGetOrderDetails builds get_order_details (GetOrderDetailsTool). The
// order id is upper-cased and given its leading '#' when it lacks one
// ("w2378156" finds "#W2378156"); the result is a copy of the order, or
// not_found "Order <id> not found" naming the id as given.
func NewGetOrderDetails(opts *tool.Options) (*tool.Typed[GetOrderDetailsParams], error) {
	return tau2tools.NewReadTool(Domain, NameGetOrderDetails,
		func(db map[string]any, p GetOrderDetailsParams) (any, error) {
			order, err := findOrder(db, p.OrderID)
			return tau2tools.Found(order, err, "Order "+p.OrderID+" not found")
		}, opts)
}

// NewGetProductDetails builds get_product_details (GetProductDetailsTool):
// a copy of the product whose id is the argument (matched exactly), or
// not_found "Product <id> not found".
func NewGetProductDetails(opts *tool.Options) (*tool.Typed[GetProductDetailsParams], error) {
	return tau2tools.NewReadTool(Domain, NameGetProductDetails,
		func(db map[string]any, p GetProductDetailsParams) (any, error) {
			product, err := findProduct(db, p.ProductID)
			return tau2tools.Found(product, err, "Product "+p.ProductID+" not found")
		}, opts)
}

// NewGetItemDetails builds get_item_details (GetItemDetailsTool): a copy
// of the variant whose item id is the argument, taken from the first
// product that lists it, or not_found "Item <id> not found".
func NewGetItemDetails(opts *tool.Options) (*tool.Typed[GetItemDetailsParams], error) {
	return tau2tools.NewReadTool(Domain, NameGetItemDetails,
		func(db map[string]any, p GetItemDetailsParams) (any, error) {
			item, err := findItem(db, p.ItemID)
			return tau2tools.Found(item, err, "Item "+p.ItemID+" not found")
		}, opts)
}

// NewGetUserDetails builds get_user_details (GetUserDetailsTool). The user
// id is matched lower-cased; the result is a copy of the user record, or
// not_found "User <id> not found" naming the id as given (see
// [tau2tools.NewGetUserDetails]: the airline domain has the same tool).
func NewGetUserDetails(opts *tool.Options) (*tool.Typed[GetUserDetailsParams], error) {
	return tau2tools.NewGetUserDetails(Domain, opts)
}

// ProductTypesResult is list_all_product_types' result. ProductTypes is a
// JSON text, not an object: {name: product id} with sorted keys, written
// as Python's json.dumps writes it by default (", " and ": " separators,
// non-ASCII escaped).
type ProductTypesResult struct {
	Status       string `json:"status"`
	ProductTypes string `json:"product_types"`
}

// NewListAllProductTypes builds list_all_product_types
// (ListAllProductTypesTool): every product's name and id, as
// ProductTypesResult. When two products share a name, the one with the
// greater product id wins (Python: the later one in the data file; no two
// products of the tau2 data share a name).
func NewListAllProductTypes(opts *tool.Options) (*tool.Typed[ListAllProductTypesParams], error) {
	return tau2tools.NewReadTool(Domain, NameListAllProductTypes,
		func(db map[string]any, _ ListAllProductTypesParams) (any, error) {
			products, err := tableOf(db, tableProducts, "values")
			if err != nil {
				return nil, err
			}
			types := make(map[string]any, len(products))
			for _, key := range tau2tools.SortedKeys(products) {
				product, err := tau2tools.AsDict(products[key])
				if err != nil {
					return nil, err
				}
				name, ok := product["name"].(string)
				if !ok {
					return nil, productNameError(product["name"])
				}
				types[name] = product["product_id"]
			}
			text, err := pyjson.Marshal(types, pyjson.Default)
			if err != nil {
				return nil, tau2tools.Raise("TypeError", "%v", err)
			}
			return ProductTypesResult{Status: tau2tools.Success, ProductTypes: string(text)}, nil
		}, opts)
}

// productNameError is what Python raises for a product name that is not a
// string: an unhashable one cannot be a dict key; any other cannot be
// sorted with the string names by json.dumps(sort_keys=True).
func productNameError(name any) error {
	switch name.(type) {
	case []any, map[string]any:
		return tau2tools.Raise("TypeError", "unhashable type: '%s'", pyvalue.TypeName(name))
	}
	return tau2tools.Raise("TypeError", "'<' not supported between instances of '%s' and 'str'", pyvalue.TypeName(name))
}
