/**
 * better-sqlite3 binds only numbers, strings, bigints, buffers and null. So
 * that the same query code runs on every backend, this Kysely plugin turns
 * the other parameter values into what SQLite stores for them: a Date into
 * ISO-8601 UTC text (`2026-01-02T03:04:05.678Z`, which sorts and compares as
 * time does), a boolean into 1 or 0.
 *
 * It also writes an integer LIMIT or OFFSET into the SQL text instead of binding it: SQLite
 * (as better-sqlite3 builds it, with STAT4) prepares a statement again whenever a parameter
 * the planner may use is bound, and a LIMIT is one. A node read by UUID with `limit ?` cost
 * five times what it does with `limit 1`.
 */
import {
  type KyselyPlugin,
  type LimitNode,
  type OffsetNode,
  type OperationNode,
  OperationNodeTransformer,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type PrimitiveValueListNode,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  ValueNode,
} from 'kysely';

export function sqliteValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

/** An integer value node as a literal of the SQL text; anything else as it is. */
function inlinedInteger(node: OperationNode): OperationNode {
  return ValueNode.is(node) && !node.immediate && Number.isSafeInteger(node.value)
    ? ValueNode.createImmediate(node.value)
    : node;
}

class ValueTransformer extends OperationNodeTransformer {
  protected override transformLimit(node: LimitNode, queryId?: QueryId): LimitNode {
    const limit = super.transformLimit(node, queryId);
    return { ...limit, limit: inlinedInteger(limit.limit) };
  }

  protected override transformOffset(node: OffsetNode, queryId?: QueryId): OffsetNode {
    const offset = super.transformOffset(node, queryId);
    return { ...offset, offset: inlinedInteger(offset.offset) };
  }

  protected override transformValue(node: ValueNode): ValueNode {
    const value = sqliteValue(node.value);
    return value === node.value ? super.transformValue(node) : { ...node, value };
  }

  protected override transformPrimitiveValueList(
    node: PrimitiveValueListNode,
  ): PrimitiveValueListNode {
    return { ...node, values: node.values.map(sqliteValue) };
  }
}

export class SqliteValuesPlugin implements KyselyPlugin {
  readonly #transformer = new ValueTransformer();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
