package project

import (
	"reflect"
	"strings"
	"testing"
)

func TestReadPrincipal(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		name string
		file any
		env  map[string]string
		want *Principal
		err  string
	}{
		{"none", nil, nil, nil, ""},
		{"file", map[string]any{"id": "ann", "roles": []any{"ops"}, "permissions": "deploy, approve"}, nil,
			&Principal{ID: "ann", Roles: []string{"ops"}, Permissions: []string{"deploy", "approve"}}, ""},
		{"env over file", map[string]any{"id": "ann", "roles": []any{"ops"}}, map[string]string{"CHAINRUN_PRINCIPAL_ROLES": "dba,ops", "CHAINRUN_PRINCIPAL_ID": "bob"},
			&Principal{ID: "bob", Roles: []string{"dba", "ops"}}, ""},
		{"env only", nil, map[string]string{"CHAINRUN_PRINCIPAL_PERMISSIONS": "deploy"}, &Principal{Permissions: []string{"deploy"}}, ""},
		{"not a mapping", "ann", nil, nil, "f: principal: write a mapping {id, roles, permissions}"},
		{"unknown key", map[string]any{"name": "ann"}, nil, nil, "f: principal.name: unknown key (keys are id, roles, permissions)"},
		{"bad roles", map[string]any{"roles": []any{1}}, nil, nil, "f: principal.roles: 1 is not a name"},
		{"bad id", map[string]any{"id": []any{"a"}}, nil, nil, "f: principal.id: [a] is not text"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadPrincipal("f: ", tc.file, env(tc.env))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v %v, want %+v", got, err, tc.want)
			}
		})
	}
}
