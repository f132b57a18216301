/**
 * A catalogue message whose values are elements (a name in bold, a `<time>`): the sentence stays
 * whole in the catalogue, in each language's own order, and the elements go where it puts them.
 */
import { Fragment, type ReactNode } from "react";

const MARK = "\u0000";

export function Interpolated<K extends string>({ message, parts }: { message: (inputs: Record<K, string>) => string; parts: Record<K, ReactNode> }) {
  const keys = Object.keys(parts) as K[];
  const marks = Object.fromEntries(keys.map((key, index) => [key, `${MARK}${index}${MARK}`])) as Record<K, string>;
  const pieces = message(marks).split(new RegExp(`${MARK}(\\d+)${MARK}`));
  return <>{pieces.map((piece, index) => (index % 2 === 1 ? <Fragment key={index}>{parts[keys[Number(piece)]!]}</Fragment> : piece))}</>;
}
