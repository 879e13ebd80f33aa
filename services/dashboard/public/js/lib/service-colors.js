// One colour per service wherever services are drawn (the waterfall, trace lists): the
// same service, the same colour, from its name.

const COLORS = ['#2563eb', '#d97706', '#059669', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#ea580c', '#475569', '#0d9488', '#9333ea', '#ca8a04'];

/** @param {string} service */
export function serviceColor(service) {
  let h = 0;
  for (let i = 0; i < service.length; i++) h = (h * 31 + service.charCodeAt(i)) >>> 0;
  return COLORS[h % COLORS.length];
}
