package api

import "github.com/barhub/barhub/text"

// cleanField applies barhub's text rule (package text) to one field a
// person typed, for the handlers that check their text themselves (the
// domain packages apply it to theirs). A refusal is an invalid_field
// error with status, naming the field in its message and details.
func cleanField(status int, field, typed string, rule text.Rule) (string, error) {
	v, err := rule.Clean(typed)
	if err != nil {
		return "", &apiError{Status: status, Code: "invalid_field", Message: field + " " + err.Error(), Details: map[string]string{"field": field}}
	}
	return v, nil
}
