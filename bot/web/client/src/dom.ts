// Element builders for HTML and SVG (the page is plain DOM, no framework).

type Attrs = Record<string, string | number | boolean | null | undefined>;
export type Child = Node | string | number | null | undefined | false;

const SVG = "http://www.w3.org/2000/svg";

function fill<E extends Element>(el: E, attrs: Attrs | null, children: Child[]): E {
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === true) el.setAttribute(name, "");
    else if (value !== false && value !== null && value !== undefined) {
      el.setAttribute(name, String(value));
    }
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  return fill(document.createElement(tag), attrs, children);
}

export function s<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Attrs | null = null,
  ...children: Child[]
): SVGElementTagNameMap[K] {
  return fill(document.createElementNS(SVG, tag), attrs, children);
}

/** Replace an element's children. */
export function put(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  fill(el, null, children);
}
