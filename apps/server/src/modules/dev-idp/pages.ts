/** HTML for the development identity provider's pages: no inline script or style (strict CSP). */
export const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

export const page = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<link rel="stylesheet" href="/oidc/assets/dev-idp.css">
</head>
<body><main class="card">${body}</main></body>
</html>`;

export const STYLESHEET = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#eef2ff;font-family:ui-sans-serif,system-ui,sans-serif;color:#0f172a}
.card{width:min(24rem,calc(100vw - 2rem));background:#fff;border-radius:1rem;padding:2rem;box-shadow:0 10px 30px rgba(49,46,129,.15)}
h1{margin:0 0 .5rem;font-size:1.5rem}
.lead{margin:0 0 1.25rem;color:#475569;font-size:.9rem}
label{display:block;margin:.75rem 0 .25rem;font-weight:600;font-size:.9rem}
input{width:100%;padding:.6rem .75rem;border:1px solid #cbd5e1;border-radius:.5rem;font:inherit}
input:focus-visible,button:focus-visible{outline:2px solid #4f46e5;outline-offset:2px}
button{display:block;width:100%;margin-top:1.25rem;padding:.65rem;border:0;border-radius:.5rem;background:#4f46e5;color:#fff;font:inherit;font-weight:600;cursor:pointer}
button:hover{background:#4338ca}
button.secondary{background:#e2e8f0;color:#0f172a;margin-top:.5rem}
.error{padding:.6rem .75rem;border-radius:.5rem;background:#fef2f2;color:#b91c1c}
details{margin-top:1.25rem;font-size:.85rem;color:#475569}
`;
