import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ErrorBoundary } from "./root";

type Props = Parameters<typeof ErrorBoundary>[0];

describe("the router's error page", () => {
  it("shows the title, the message and the stack of an unhandled error", () => {
    const error = new Error("The crystal ball cracked");
    const html = renderToStaticMarkup(<ErrorBoundary {...({ error, params: {} } as unknown as Props)} />);
    expect(html).toContain("Unexpected Application Error!");
    expect(html).toContain("The crystal ball cracked");
    expect(html).toContain("<pre");
    expect(html).toContain("root.test.tsx");
  });

  it("shows no stack when there is none", () => {
    const html = renderToStaticMarkup(
      <ErrorBoundary {...({ error: "plain failure", params: {} } as unknown as Props)} />,
    );
    expect(html).toContain("Unexpected Application Error!");
    expect(html).toContain("plain failure");
    expect(html).not.toContain("<pre");
  });
});
