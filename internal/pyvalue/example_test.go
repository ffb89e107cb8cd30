package pyvalue_test

import (
	"errors"
	"fmt"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

func Example() {
	v, _ := pyvalue.Loads([]byte(`{"name": "Zoë", "total": 19.99, "items": [1, 2.5]}`))
	fmt.Println(pyvalue.Repr(v))
	fmt.Println(pyvalue.TypeName(v), pyvalue.Truthy(v))

	_, err := pyvalue.Float("12 apples")
	var pe *pyvalue.Error
	if errors.As(err, &pe) {
		fmt.Println(pe.Type, "|", pe.Str(), "|", pe.Repr())
	}
	// Output:
	// {'name': 'Zoë', 'total': 19.99, 'items': [1, 2.5]}
	// dict true
	// ValueError | could not convert string to float: '12 apples' | ValueError("could not convert string to float: '12 apples'")
}

func ExampleNum() {
	a, _ := pyvalue.NumOf(7)
	b, _ := pyvalue.NumOf(2.5)
	sum, _ := a.Add(b)
	q, _ := a.FloorDiv(pyvalue.IntNum(-2))
	_, err := a.Mod(pyvalue.IntNum(0))
	fmt.Println(sum, q, err)
	// Output: 9.5 -4 ZeroDivisionError: integer modulo by zero
}

func ExampleTitle() {
	fmt.Println(pyvalue.Title("o'neil mc-donald"), pyvalue.Upper("straße"), pyvalue.Lower("ΣΑΣ"))
	// Output: O'Neil Mc-Donald STRASSE σας
}
