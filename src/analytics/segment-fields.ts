import type { QueryParams } from '../store/clickhouse.ts';
import { channelsOfAll, sourceGroupMembers } from './sources.ts';

/**
 * What a segment rule may test (segments.create, metadata.list_schema `segment_fields`): one
 * customer's facts, from the workspace's sale orders (docs/books.md) and the sessions of the
 * visitors the pixel tied to that customer. `list` fields hold several values per customer (every
 * coupon the customer used, every channel their visits landed from): `equals` means one of them
 * is the value, `not_equals` none, `contains` one contains it, `in` one is in the list.
 */
export type SegmentFieldType = 'number' | 'text' | 'list';

export const SEGMENT_OPERATORS = ['equals', 'not_equals', 'contains', 'greater_than', 'less_than', 'in'] as const;
export type SegmentOperator = (typeof SEGMENT_OPERATORS)[number];

const OPERATORS_OF: Record<SegmentFieldType, readonly SegmentOperator[]> = {
  number: ['equals', 'not_equals', 'greater_than', 'less_than'],
  text: ['equals', 'not_equals', 'contains', 'in'],
  list: ['equals', 'not_equals', 'contains', 'in'],
};

interface SegmentField {
  type: SegmentFieldType;
  /** A column of the customers subquery of src/analytics/queries/segments/segment-members.ts. */
  column: string;
  description: string;
}

export const SEGMENT_FIELDS = {
  orders_count: { type: 'number', column: 'orders_count', description: 'Sale orders placed' },
  total_spent: { type: 'number', column: 'total_spent', description: 'Gross revenue of those orders, in the workspace currency' },
  days_since_last_order: { type: 'number', column: 'days_since_last_order', description: 'Whole days since the newest sale order' },
  country_code: { type: 'text', column: 'country_code', description: 'Country of the newest sale order' },
  city: { type: 'text', column: 'city', description: 'City of the newest sale order' },
  coupon_code: { type: 'list', column: 'coupon_codes', description: 'Coupon codes used on sale orders' },
  adv_source: { type: 'list', column: 'channels', description: "Channels the customer's visits landed from (a source or source group)" },
} as const satisfies Record<string, SegmentField>;

export type SegmentFieldName = keyof typeof SEGMENT_FIELDS;
export const SEGMENT_FIELD_NAMES = Object.keys(SEGMENT_FIELDS) as SegmentFieldName[];

export interface SegmentRule {
  field: string;
  operator: string;
  value: string | number | string[];
}

export function operatorsOf(field: SegmentFieldName): readonly SegmentOperator[] {
  return OPERATORS_OF[SEGMENT_FIELDS[field].type];
}

/** The segment fields as metadata.list_schema lists them. */
export function segmentFieldList() {
  return SEGMENT_FIELD_NAMES.map((field) => ({ field, type: SEGMENT_FIELDS[field].type, operators: operatorsOf(field), description: SEGMENT_FIELDS[field].description }));
}

const isField = (name: string): name is SegmentFieldName => Object.hasOwn(SEGMENT_FIELDS, name);

/** Why a rule cannot be evaluated (unknown field, operator the field does not take, a value of the wrong kind), or null. */
export function ruleProblem(rule: SegmentRule): string | null {
  if (!isField(rule.field)) return `field must be one of ${SEGMENT_FIELD_NAMES.join(', ')} (metadata.list_schema segment_fields)`;
  const operators = operatorsOf(rule.field);
  if (!operators.includes(rule.operator as SegmentOperator)) return `${rule.field} takes the operators ${operators.join(', ')}`;
  const type = SEGMENT_FIELDS[rule.field].type;
  if (rule.operator === 'in') return Array.isArray(rule.value) && rule.value.length > 0 ? null : 'the in operator takes a list of values';
  if (type === 'number') return typeof rule.value === 'number' ? null : `${rule.field} is compared with a number`;
  return typeof rule.value === 'string' ? null : `${rule.field} is compared with a text`;
}

/**
 * The raw channels an adv_source rule value stands for: a source (meta: its family; creator:
 * with legacy influencer) or a source group's members; other text stands for itself.
 */
export function channelValues(values: string[]): string[] {
  return channelsOfAll(values.flatMap((v): readonly string[] => sourceGroupMembers(v) ?? [v]));
}

/** The SQL condition of one rule on the customers subquery, its value bound as `{<param>:...}`. */
export function ruleSql(rule: SegmentRule, param: string): { sql: string; params: QueryParams } {
  const field = rule.field as SegmentFieldName;
  const { type, column } = SEGMENT_FIELDS[field];
  if (type === 'number') {
    const op = { equals: '=', not_equals: '!=', greater_than: '>', less_than: '<' }[rule.operator as 'equals']!;
    return { sql: `${column} ${op} {${param}:Float64}`, params: { [param]: rule.value } };
  }
  const values = Array.isArray(rule.value) ? rule.value : [String(rule.value)];
  const bound = field === 'adv_source' && rule.operator !== 'contains' ? channelValues(values) : values;
  if (type === 'text') {
    const sql = {
      equals: `${column} = {${param}:String}`,
      not_equals: `${column} != {${param}:String}`,
      contains: `position(${column}, {${param}:String}) > 0`,
      in: `${column} IN {${param}:Array(String)}`,
    }[rule.operator as 'equals']!;
    return { sql, params: { [param]: rule.operator === 'in' ? bound : bound[0] } };
  }
  const sql = {
    equals: `hasAny(${column}, {${param}:Array(String)})`,
    not_equals: `NOT hasAny(${column}, {${param}:Array(String)})`,
    contains: `arrayExists(v -> position(v, {${param}:String}) > 0, ${column})`,
    in: `hasAny(${column}, {${param}:Array(String)})`,
  }[rule.operator as 'equals']!;
  return { sql, params: { [param]: rule.operator === 'contains' ? bound[0] : bound } };
}
