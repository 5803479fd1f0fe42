"""Array, map, struct, higher-order and JSON functions at their extremes against Apache Spark: the audit table's
int and long limits, NaN, ±Infinity, ±0.0, subnormals, multi-byte text, leap days, the ends of the
date range, Los Angeles clock changes and nulls, with ANSI mode on and off."""

from __future__ import annotations

from function_audit import check

EXPRS = [
    'array(i, l, NULL)',
    'array_contains(array(1, NULL), i)',
    'array_contains(array(x), x)',
    'array_distinct(array(x, x, z, -0.0D, 0.0D, NULL, NULL))',
    'array_union(array(z), array(-z, x))',
    'array_intersect(array(1, 2, NULL), array(NULL, 2))',
    'array_except(array(1, 2, NULL, 2), array(1))',
    "array_join(array(s, NULL, 'a'), ',')",
    "array_join(array(s, NULL, 'a'), ',', 'N')",
    'array_max(array(d, x, NULL))',
    'array_min(array(d, x, z))',
    'array_max(array())',
    'array_position(array(1, 2, 1), 1)',
    'array_position(array(x), x)',
    'array_remove(array(x, 1.0D, NULL), x)',
    'array_repeat(s, 2)',
    'array_repeat(s, -1)',
    'arrays_zip(array(1, 2), array(s))',
    'element_at(array(1, 2), 0)',
    'element_at(array(1, 2), 3)',
    'element_at(array(1, 2), -3)',
    "element_at(map(1, 'a'), 2)",
    'try_element_at(array(1, 2), 0)',
    'array(1, 2)[5]',
    "map(1, 'a')[2]",
    'flatten(array(array(1), NULL))',
    'flatten(array(array(1), array(NULL)))',
    'get(array(1, 2), -1)',
    'get(array(1, 2), 2)',
    'size(NULL)',
    'size(array())',
    'cardinality(map(1, 2))',
    'slice(array(1, 2, 3), -2, 2)',
    'slice(array(1, 2, 3), 0, 1)',
    'slice(array(1, 2, 3), 1, -1)',
    'sort_array(array(x, d, z, -0.0D, NULL, 1.0D))',
    'sort_array(array(x, d, z, NULL), false)',
    'array_sort(array(x, d, z, NULL))',
    "array_sort(array(s, 'a', NULL), (a, b) -> CASE WHEN a < b THEN 1 WHEN a > b THEN -1 ELSE 0 END)",
    'sequence(1, 5, 2)',
    'sequence(5, 1)',
    "sequence(dt, DATE'2024-03-02')",
    'map(1, s, 2, NULL)',
    "map(1, 'a', 1, 'b')",
    'map(NULL, 1)',
    'map_keys(map(k, s))',
    'map_values(map(k, s))',
    'map_entries(map(k, s))',
    'map_from_arrays(array(1, 2), array(s, s))',
    'map_from_arrays(array(1, 1), array(s, s))',
    'map_from_arrays(array(1, NULL), array(s, s))',
    'map_from_entries(array(struct(1, s), struct(2, NULL)))',
    "map_concat(map(1, s), map(1, 'dup'))",
    'struct(i, s).col2',
    "named_struct('a', i, 'b', s).a",
    'transform(array(i, l), (v, idx) -> v + idx)',
    'filter(array(1, NULL, 3), v -> v > 1)',
    'exists(array(1, NULL), v -> v > 1)',
    'exists(array(1, NULL), v -> v = 1)',
    'forall(array(1, NULL), v -> v > 0)',
    'aggregate(array(1, 2, 3), 0L, (a, v) -> a + v, a -> a * 10)',
    'aggregate(array(i, i), 0, (a, v) -> a + v)',
    'zip_with(array(1, 2), array(s), (a, b) -> concat(a, b))',
    "map_filter(map(1, s, 2, 'x'), (kk, v) -> kk > 1)",
    'transform_keys(map(1, s), (kk, v) -> kk + 1)',
    "transform_keys(map(1, s, 2, 'b'), (kk, v) -> 0)",
    'transform_values(map(1, s), (kk, v) -> upper(v))',
    'from_json(\'{"a": 1e400, "b": "x"}\', \'a double, b int\')',
    'from_json(\'{"a": 2147483648}\', \'a int\')',
    'from_json(\'[1, 2, "x"]\', \'array<int>\')',
    "from_json('bad', 'a int')",
    'from_json(\'{"a": "2024-02-29"}\', \'a date\')',
    "to_json(named_struct('a', x, 'b', z, 'c', dt, 'd', ts, 'e', s, 'f', dc))",
    "to_json(array(map('k', d)))",
    'schema_of_json(\'{"a": [1, 2.5], "b": {"c": null}, "d": "2024-01-01"}\')',
    'get_json_object(\'{"a": {"b": [1, {"c": "日本"}]}}\', \'$.a.b[1].c\')',
    'get_json_object(\'{"a": 1}\', \'$.b\')',
    "get_json_object('bad', '$.a')",
    'get_json_object(\'{"a": [1,2,3]}\', \'$.a[*]\')',
]

# The expressions that fail, by ANSI mode, with the error class Spark raises.
ERRORS = {
    'element_at(array(1, 2), 0)': {'true': 'INVALID_INDEX_OF_ZERO', 'false': 'INVALID_INDEX_OF_ZERO'},
    'element_at(array(1, 2), 3)': {'true': 'INVALID_ARRAY_INDEX_IN_ELEMENT_AT'},
    'element_at(array(1, 2), -3)': {'true': 'INVALID_ARRAY_INDEX_IN_ELEMENT_AT'},
    'try_element_at(array(1, 2), 0)': {'true': 'INVALID_INDEX_OF_ZERO', 'false': 'INVALID_INDEX_OF_ZERO'},
    'array(1, 2)[5]': {'true': 'INVALID_ARRAY_INDEX'},
    'slice(array(1, 2, 3), 0, 1)': {'true': 'INVALID_PARAMETER_VALUE.START', 'false': 'INVALID_PARAMETER_VALUE.START'},
    'slice(array(1, 2, 3), 1, -1)': {'true': 'INVALID_PARAMETER_VALUE.LENGTH', 'false': 'INVALID_PARAMETER_VALUE.LENGTH'},
    "map(1, 'a', 1, 'b')": {'true': 'DUPLICATED_MAP_KEY', 'false': 'DUPLICATED_MAP_KEY'},
    'map(NULL, 1)': {'true': 'NULL_MAP_KEY', 'false': 'NULL_MAP_KEY'},
    'map_from_arrays(array(1, 1), array(s, s))': {'true': 'DUPLICATED_MAP_KEY', 'false': 'DUPLICATED_MAP_KEY'},
    'map_from_arrays(array(1, NULL), array(s, s))': {'true': 'NULL_MAP_KEY', 'false': 'NULL_MAP_KEY'},
    'map_from_entries(array(struct(1, s), struct(2, NULL)))': {'true': 'DATATYPE_MISMATCH.DATA_DIFF_TYPES', 'false': 'DATATYPE_MISMATCH.DATA_DIFF_TYPES'},
    "map_concat(map(1, s), map(1, 'dup'))": {'true': 'DUPLICATED_MAP_KEY', 'false': 'DUPLICATED_MAP_KEY'},
    'struct(i, s).col2': {'true': 'FIELD_NOT_FOUND', 'false': 'FIELD_NOT_FOUND'},
    'transform(array(i, l), (v, idx) -> v + idx)': {'true': 'ARITHMETIC_OVERFLOW'},
    'aggregate(array(i, i), 0, (a, v) -> a + v)': {'true': 'ARITHMETIC_OVERFLOW'},
    "transform_keys(map(1, s, 2, 'b'), (kk, v) -> 0)": {'true': 'DUPLICATED_MAP_KEY', 'false': 'DUPLICATED_MAP_KEY'},
}


def test_collections_extremes(diff, diff_error, ember, oracle):
    check(diff, diff_error, ember, oracle, EXPRS, ERRORS)


def test_map_null_key(diff_error):
    diff_error(lambda s: s.sql("SELECT map(NULL, 1)"), "NULL_MAP_KEY")
    diff_error(lambda s: s.sql("SELECT map(k, 1) FROM VALUES (CAST(NULL AS INT)) t(k)"), "NULL_MAP_KEY")
    diff_error(lambda s: s.sql("SELECT map(1, 'a', NULL, 'b')"), "NULL_MAP_KEY")
