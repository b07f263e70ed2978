/** Hand-made SVG illustrations (no external images). Decorative: hidden from assistive tech. */

export function WorkspaceIllustration({ className = '' }: { className?: string }) {
  return (
    <svg viewBox="0 0 480 360" className={className} aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="ws-bg" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#eef2ff" />
          <stop offset="1" stopColor="#e0e7ff" />
        </linearGradient>
        <linearGradient id="ws-accent" x1="0" y1="0" x2="1" y2="0">
          <stop offset="0" stopColor="#6366f1" />
          <stop offset="1" stopColor="#4338ca" />
        </linearGradient>
      </defs>
      <rect x="8" y="8" width="464" height="344" rx="28" fill="url(#ws-bg)" />
      <rect x="40" y="44" width="400" height="272" rx="16" fill="#fff" stroke="#c7d2fe" />
      <rect x="40" y="44" width="400" height="34" rx="16" fill="#f8fafc" />
      <circle cx="62" cy="61" r="5" fill="#fca5a5" />
      <circle cx="80" cy="61" r="5" fill="#fcd34d" />
      <circle cx="98" cy="61" r="5" fill="#86efac" />
      <rect x="56" y="94" width="92" height="206" rx="10" fill="#eef2ff" />
      {[112, 136, 160, 184, 208].map((y, index) => (
        <rect
          key={y}
          x="68"
          y={y}
          width={index === 0 ? 68 : 56}
          height="10"
          rx="5"
          fill={index === 0 ? '#4f46e5' : '#c7d2fe'}
        />
      ))}
      <rect x="164" y="94" width="124" height="88" rx="10" fill="#f8fafc" stroke="#e2e8f0" />
      <path
        d="M178 150c10-22 18 8 28-10s18 14 28-6 18 10 28-4 12 6 12 6"
        fill="none"
        stroke="url(#ws-accent)"
        strokeWidth="4"
        strokeLinecap="round"
      />
      <rect x="178" y="106" width="60" height="8" rx="4" fill="#94a3b8" />
      <rect x="300" y="94" width="124" height="88" rx="10" fill="#f8fafc" stroke="#e2e8f0" />
      <rect
        x="330"
        y="108"
        width="64"
        height="64"
        rx="8"
        fill="none"
        stroke="#4f46e5"
        strokeWidth="3"
        strokeDasharray="8 5"
      />
      <circle cx="362" cy="132" r="12" fill="#c7d2fe" />
      <path d="M340 166c6-14 38-14 44 0" fill="#c7d2fe" />
      <rect x="164" y="196" width="260" height="104" rx="10" fill="#f8fafc" stroke="#e2e8f0" />
      {[0, 1, 2].map((row) => (
        <g key={row}>
          <rect
            x="178"
            y={212 + row * 28}
            width="20"
            height="20"
            rx="5"
            fill={['#a5b4fc', '#fbcfe8', '#bbf7d0'][row]}
          />
          <rect x="208" y={216 + row * 28} width={[120, 96, 140][row]} height="8" rx="4" fill="#cbd5e1" />
          <rect x="372" y={216 + row * 28} width="36" height="8" rx="4" fill="#e2e8f0" />
        </g>
      ))}
      <g>
        <rect x="330" y="250" width="128" height="74" rx="14" fill="#4f46e5" />
        <rect x="346" y="266" width="80" height="8" rx="4" fill="#e0e7ff" />
        <rect x="346" y="282" width="96" height="8" rx="4" fill="#a5b4fc" />
        <rect x="346" y="298" width="56" height="8" rx="4" fill="#a5b4fc" />
      </g>
      <circle cx="40" cy="300" r="26" fill="#4f46e5" />
      <rect x="34" y="284" width="12" height="22" rx="6" fill="#fff" />
      <path d="M28 298a12 12 0 0 0 24 0M40 310v6" fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

export function TeamIllustration({ className = '' }: { className?: string }) {
  return (
    <svg viewBox="0 0 400 280" className={className} aria-hidden="true" focusable="false">
      <rect x="4" y="4" width="392" height="272" rx="24" fill="#eef2ff" />
      <rect x="60" y="176" width="280" height="16" rx="8" fill="#c7d2fe" />
      {[
        { x: 110, color: '#4f46e5', skin: '#fcd9bd' },
        { x: 200, color: '#0ea5e9', skin: '#8d5524' },
        { x: 290, color: '#db2777', skin: '#e0ac69' },
      ].map((person) => (
        <g key={person.x}>
          <circle cx={person.x} cy="96" r="26" fill={person.skin} />
          <path d={`M${person.x - 44} 176c0-40 20-52 44-52s44 12 44 52z`} fill={person.color} />
        </g>
      ))}
      <rect x="150" y="28" width="100" height="34" rx="17" fill="#fff" />
      <circle cx="176" cy="45" r="5" fill="#4f46e5" />
      <circle cx="200" cy="45" r="5" fill="#6366f1" />
      <circle cx="224" cy="45" r="5" fill="#a5b4fc" />
      <path d="M40 236h320" stroke="#a5b4fc" strokeWidth="4" strokeLinecap="round" strokeDasharray="2 14" />
    </svg>
  );
}

export function EnvelopeIllustration({ className = '' }: { className?: string }) {
  return (
    <svg viewBox="0 0 320 220" className={className} aria-hidden="true" focusable="false">
      <rect x="4" y="4" width="312" height="212" rx="24" fill="#eef2ff" />
      <rect x="60" y="56" width="200" height="124" rx="12" fill="#fff" stroke="#a5b4fc" strokeWidth="3" />
      <path d="m62 60 98 70 98-70" fill="none" stroke="#4f46e5" strokeWidth="4" strokeLinejoin="round" />
      <circle cx="252" cy="60" r="22" fill="#4f46e5" />
      <path
        d="m242 60 7 7 13-14"
        fill="none"
        stroke="#fff"
        strokeWidth="4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
