package pynum_test

import (
	"fmt"

	"github.com/voiceeval/schematools/domains/internal/pynum"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

func ExampleDBNumber() {
	balance, _ := pyvalue.NumOf(163.0) // a gift card balance, a float in the DB
	after, _ := balance.Sub(pyvalue.IntNum(50))
	fmt.Println(after, pynum.DBNumber(after))
	// Output: 113.0 113.0
}
