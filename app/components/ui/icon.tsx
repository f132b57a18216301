/**
 * A Lucide icon, drawn from its data in the `lucide` package (decision 039): `<Icon node={Menu} />`.
 * Every icon on the site is a picture beside words, so it is hidden from screen readers unless a
 * caller says otherwise.
 */
import type { IconNode } from "lucide";
import { createElement, type SVGProps } from "react";

export function Icon({ node, ...rest }: { node: IconNode } & SVGProps<SVGSVGElement>) {
  return (
    <svg
      width="24"
      height="24"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      {...rest}
    >
      {node.map(([tag, attributes], index) => createElement(tag, { key: index, ...attributes }))}
    </svg>
  );
}
