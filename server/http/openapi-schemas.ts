import { z } from '../../lib/api/zod';
import { componentSchemas as components } from './openapi-meta';

export type JsonObject = Record<string, unknown>;
export type Schema = z.core.$ZodType;

const COMPONENT = (id: string) => `#/components/schemas/${id}`;

/** The contract's named schemas as JSON Schema, each referring to the others by id. */
export function componentSchemas(): JsonObject {
  // `metadata`: the registry's descriptions and rules between fields go into the schemas, not only their ids.
  const { schemas } = z.toJSONSchema(components, {
    uri: COMPONENT,
    io: 'input',
    unrepresentable: 'any',
    metadata: components,
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _schema, $id: _id, ...rest } = schema as JsonObject;
      return [id, rest];
    }),
  );
}

/** A reference to a named schema, or the schema itself when it has no name. */
export function schemaRef(schema: Schema): JsonObject {
  const id = components.get(schema)?.id;
  if (id) return { $ref: COMPONENT(id) };
  const { $schema: _schema, ...inline } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as JsonObject;
  return inline;
}
