/**
 * Demo data of the ERP simulator: a trade-supply business (plumbing, electrical,
 * fasteners, tools). `demoData()` returns a fresh copy each call so tests can mutate it.
 * Products, categories and shipments have the types of the contract the service reads
 * (src/upstream/types.ts).
 */
import type { Category, Product, Shipment, UpstreamOrganization } from '../src/upstream/types.js';

/** Prices are integer cents; the server formats them as decimal strings. */
export interface SimPricing {
  list_cents: number;
  /** Campaign price replacing the list price, or null. */
  campaign_cents: number | null;
  unit: string;
  ask_for_price: boolean;
  /** Metal surcharge (copper): quoted price per unit of metal and the amount per sales unit. */
  alloying: { price_cents: number; unit: string; amount_cents: number } | null;
}

export interface SimProduct {
  product: Product;
  pricing: SimPricing;
  order_multiple: number;
  /** Replenishment lead time in days when out of stock. */
  lead_days: [number, number];
  /** Quantity per location_id; a location missing here does not stock the product. */
  stock: Record<string, number>;
}

/** An organization as the simulator keeps it: whether its credit is unlimited is always known. */
export type SimOrganization = Required<UpstreamOrganization>;

export interface SimUser {
  username: string;
  password: string;
  role: 'customer' | 'admin';
  description: string;
  email: string;
  first_name: string;
  last_name: string;
  telephone: string;
  reference: string | null;
  /** Customer discount in hundredths of a percent (1250 = 12.50 %). */
  discount_basis_points: number;
  memberships: { organization_id: string; credit: boolean }[];
}

export interface SimLocation {
  location_id: string;
  name: string;
}

export interface SimulatorData {
  users: SimUser[];
  organizations: SimOrganization[];
  locations: SimLocation[];
  /** Keyed by article number. */
  products: Record<string, SimProduct>;
  categories: Category[];
  /** Keyed by telephone number. */
  shipments: Record<string, Shipment[]>;
}

export const DEMO_SERVICE_ACCOUNT = { username: 'service', password: 'service-password' };

/** GLN-13 of the demo stores (check digits verified). */
export const DEMO_STORE_GLNS = ['4012345000009', '4012345000016', '4012345000023'];
export const CENTRAL_WAREHOUSE = 'WH-CENTRAL';

/** Appends the GS1 mod-10 check digit (EAN-13, GLN-13) to 12 digits. */
export function withCheckDigit(digits12: string): string {
  let sum = 0;
  for (let i = 0; i < digits12.length; i++) sum += Number(digits12[i]) * (i % 2 === 0 ? 1 : 3);
  return digits12 + String((10 - (sum % 10)) % 10);
}

const ORGANIZATIONS: SimOrganization[] = [
  {
    organization_id: 'ORG-1001',
    code: '100100',
    name: 'Hoffmann Haustechnik GmbH',
    parent_code: '',
    has_unlimited_credit: false,
  },
  {
    organization_id: 'ORG-1002',
    code: '100110',
    name: 'Hoffmann Haustechnik GmbH - Site Nord',
    parent_code: '100100',
    has_unlimited_credit: false,
  },
  {
    organization_id: 'ORG-1003',
    code: '100200',
    name: 'Berger Elektro KG',
    parent_code: '',
    has_unlimited_credit: true,
  },
  {
    organization_id: 'ORG-1004',
    code: '100300',
    name: 'Lindqvist Bau & Montage AG',
    parent_code: '',
    has_unlimited_credit: false,
  },
];

const USERS: SimUser[] = [
  {
    username: 'anna',
    password: 'anna-pass-2026',
    role: 'customer',
    description: 'Plumber; member of two organizations (credit in one), has shipments',
    email: 'anna@example.com',
    first_name: 'Anna',
    last_name: 'Hoffmann',
    telephone: '+4915112345678',
    reference: 'AH-PLUMB',
    discount_basis_points: 1250,
    memberships: [
      { organization_id: 'ORG-1001', credit: true },
      { organization_id: 'ORG-1002', credit: false },
    ],
  },
  {
    username: 'bruno',
    password: 'bruno-pass-2026',
    role: 'customer',
    description: 'Electrician; member of one organization (unlimited credit)',
    email: 'bruno@example.com',
    first_name: 'Bruno',
    last_name: 'Berger',
    telephone: '+4917098765432',
    reference: 'BB-ELEC',
    discount_basis_points: 500,
    memberships: [{ organization_id: 'ORG-1003', credit: true }],
  },
  {
    username: 'carla',
    password: 'carla-pass-2026',
    role: 'admin',
    description: 'Store admin; member of one organization',
    email: 'carla@example.com',
    first_name: 'Carla',
    last_name: 'Lindqvist',
    telephone: '+4916055511122',
    reference: null,
    discount_basis_points: 0,
    memberships: [{ organization_id: 'ORG-1004', credit: true }],
  },
];

/** The demo logins the README prints. */
export const DEMO_USERS: {
  username: string;
  password: string;
  role: 'customer' | 'admin';
  description: string;
}[] = USERS.map(({ username, password, role, description }) => ({
  username,
  password,
  role,
  description,
}));

const LOCATIONS: SimLocation[] = [
  { location_id: DEMO_STORE_GLNS[0], name: 'Trade store Hamburg-Harburg' },
  { location_id: DEMO_STORE_GLNS[1], name: 'Trade store Bremen-Hemelingen' },
  { location_id: DEMO_STORE_GLNS[2], name: 'Trade store Hannover-Linden' },
  { location_id: CENTRAL_WAREHOUSE, name: 'Central warehouse' },
];

const CATEGORIES: Category[] = [
  {
    id: '1',
    name: 'Plumbing',
    slug: 'plumbing',
    sort: 1,
    children: [
      {
        id: '11',
        name: 'Pipes',
        slug: 'plumbing/pipes',
        children: [
          { id: '111', name: 'Copper pipes', slug: 'plumbing/pipes/copper' },
          { id: '112', name: 'Multilayer pipes', slug: 'plumbing/pipes/multilayer' },
        ],
      },
      {
        id: '12',
        name: 'Fittings',
        slug: 'plumbing/fittings',
        children: [
          { id: '121', name: 'Press fittings', slug: 'plumbing/fittings/press' },
          { id: '122', name: 'Compression fittings', slug: 'plumbing/fittings/compression' },
        ],
      },
      {
        id: '13',
        name: 'Valves',
        slug: 'plumbing/valves',
        children: [
          { id: '131', name: 'Ball valves', slug: 'plumbing/valves/ball' },
          { id: '132', name: 'Radiator valves', slug: 'plumbing/valves/radiator' },
        ],
      },
    ],
  },
  {
    id: '2',
    name: 'Electrical',
    slug: 'electrical',
    sort: 2,
    children: [
      {
        id: '21',
        name: 'Cables',
        slug: 'electrical/cables',
        children: [
          { id: '211', name: 'Installation cables', slug: 'electrical/cables/installation' },
          { id: '212', name: 'Flexible cables', slug: 'electrical/cables/flexible' },
        ],
      },
      {
        id: '22',
        name: 'Wiring devices',
        slug: 'electrical/wiring-devices',
        children: [
          {
            id: '221',
            name: 'Switches and sockets',
            slug: 'electrical/wiring-devices/switches-sockets',
          },
          { id: '222', name: 'Junction boxes', slug: 'electrical/wiring-devices/junction-boxes' },
        ],
      },
      {
        id: '23',
        name: 'Circuit protection',
        slug: 'electrical/protection',
        children: [
          { id: '231', name: 'Circuit breakers', slug: 'electrical/protection/circuit-breakers' },
          { id: '232', name: 'Residual current devices', slug: 'electrical/protection/rcd' },
        ],
      },
    ],
  },
  {
    id: '3',
    name: 'Fasteners & Tools',
    slug: 'fasteners-tools',
    sort: 3,
    children: [
      {
        id: '31',
        name: 'Fasteners',
        slug: 'fasteners-tools/fasteners',
        children: [
          { id: '311', name: 'Bolts and screws', slug: 'fasteners-tools/fasteners/bolts-screws' },
          { id: '312', name: 'Anchors and wall plugs', slug: 'fasteners-tools/fasteners/anchors' },
        ],
      },
      {
        id: '32',
        name: 'Hand tools',
        slug: 'fasteners-tools/hand-tools',
        children: [
          {
            id: '321',
            name: 'Pliers and cutters',
            slug: 'fasteners-tools/hand-tools/pliers-cutters',
          },
          { id: '322', name: 'Screwdrivers', slug: 'fasteners-tools/hand-tools/screwdrivers' },
        ],
      },
      {
        id: '33',
        name: 'Power tools',
        slug: 'fasteners-tools/power-tools',
        children: [
          { id: '331', name: 'Drills and drivers', slug: 'fasteners-tools/power-tools/drills' },
          { id: '332', name: 'Drill bits', slug: 'fasteners-tools/power-tools/drill-bits' },
        ],
      },
    ],
  },
];

/** One catalogue line, expanded into a full Product by `buildProduct`. */
interface Row {
  article: string;
  family: string;
  name: string;
  description: string;
  category: string;
  cents: number;
  campaign?: number;
  unit?: string;
  /** Copper surcharge: [price per 100 kg, amount per sales unit], in cents. */
  copper?: [number, number];
  ask?: boolean;
  discontinued?: boolean;
  multiple?: number;
  lead?: [number, number];
  /** Store 1, store 2, store 3, central warehouse; null = not stocked there. */
  stock: [number | null, number | null, number | null, number | null];
  tags: string[];
  attrs: [name: string, label: string, value: string][];
  /** Number of images; default 2. */
  images?: number;
  datasheet?: boolean;
}

const ROWS: Row[] = [
  // Plumbing
  {
    article: '10001234',
    family: 'copper-pipe',
    name: 'Copper pipe 15 mm x 5 m',
    description:
      'Hard-drawn copper pipe EN 1057 R290, 15 x 1.0 mm, for drinking water and heating.',
    category: '111',
    cents: 2490,
    copper: [85000, 210],
    stock: [42, 7, 0, 380],
    tags: ['copper', '15 mm', 'EN 1057'],
    attrs: [
      ['outer_diameter', 'Outer diameter', '15 mm'],
      ['wall_thickness', 'Wall thickness', '1.0 mm'],
      ['length', 'Length', '5 m'],
      ['material', 'Material', 'Cu-DHP'],
    ],
    datasheet: true,
  },
  {
    article: '10001241',
    family: 'copper-pipe',
    name: 'Copper pipe 22 mm x 5 m',
    description:
      'Hard-drawn copper pipe EN 1057 R290, 22 x 1.0 mm, for drinking water and heating.',
    category: '111',
    cents: 3990,
    copper: [85000, 320],
    stock: [18, 12, 3, 240],
    tags: ['copper', '22 mm', 'EN 1057'],
    attrs: [
      ['outer_diameter', 'Outer diameter', '22 mm'],
      ['wall_thickness', 'Wall thickness', '1.0 mm'],
      ['length', 'Length', '5 m'],
      ['material', 'Material', 'Cu-DHP'],
    ],
    datasheet: true,
  },
  {
    article: '10001258',
    family: 'copper-pipe',
    name: 'Copper pipe 28 mm x 5 m',
    description:
      'Hard-drawn copper pipe EN 1057 R290, 28 x 1.0 mm, for drinking water and heating.',
    category: '111',
    cents: 5590,
    copper: [85000, 410],
    stock: [6, null, 2, 95],
    tags: ['copper', '28 mm', 'EN 1057'],
    attrs: [
      ['outer_diameter', 'Outer diameter', '28 mm'],
      ['wall_thickness', 'Wall thickness', '1.0 mm'],
      ['length', 'Length', '5 m'],
    ],
  },
  {
    article: '10002010',
    family: 'multilayer-pipe',
    name: 'Multilayer pipe 16x2 mm, 50 m coil',
    description: 'PE-RT/AL/PE-RT composite pipe for heating and sanitary installations.',
    category: '112',
    cents: 8990,
    unit: 'coil',
    stock: [11, 4, 9, 60],
    tags: ['multilayer', '16 mm', 'PE-RT'],
    attrs: [
      ['outer_diameter', 'Outer diameter', '16 mm'],
      ['length', 'Length', '50 m'],
      ['max_temperature', 'Max. operating temperature', '95 °C'],
    ],
  },
  {
    article: '10002027',
    family: 'multilayer-pipe',
    name: 'Multilayer pipe 20x2 mm, 50 m coil',
    description: 'PE-RT/AL/PE-RT composite pipe for heating and sanitary installations.',
    category: '112',
    cents: 11990,
    unit: 'coil',
    stock: [3, 0, null, 25],
    tags: ['multilayer', '20 mm', 'PE-RT'],
    attrs: [
      ['outer_diameter', 'Outer diameter', '20 mm'],
      ['length', 'Length', '50 m'],
      ['max_temperature', 'Max. operating temperature', '95 °C'],
    ],
  },
  {
    article: '10003105',
    family: 'press-elbow',
    name: 'Press fitting elbow 90° 15 mm copper',
    description: 'Copper press elbow with M contour and SC-Contur leak indication.',
    category: '121',
    cents: 390,
    multiple: 10,
    stock: [250, 140, 60, 4000],
    tags: ['press', 'copper', '15 mm'],
    attrs: [
      ['size', 'Size', '15 mm'],
      ['angle', 'Angle', '90°'],
      ['contour', 'Press contour', 'M'],
    ],
  },
  {
    article: '10003112',
    family: 'press-tee',
    name: 'Press fitting tee 22 mm copper',
    description: 'Copper press tee, equal, with M contour.',
    category: '121',
    cents: 790,
    multiple: 5,
    stock: [80, 35, 0, 1200],
    tags: ['press', 'copper', '22 mm'],
    attrs: [
      ['size', 'Size', '22 mm'],
      ['contour', 'Press contour', 'M'],
    ],
  },
  {
    article: '10003129',
    family: 'compression-coupling',
    name: 'Compression coupling 15 mm brass',
    description: 'Straight compression coupling, brass, for copper and steel pipe.',
    category: '122',
    cents: 450,
    stock: [64, 22, 18, 900],
    tags: ['compression', 'brass', '15 mm'],
    attrs: [
      ['size', 'Size', '15 mm'],
      ['material', 'Material', 'Brass CW617N'],
    ],
    images: 1,
  },
  {
    article: '10004001',
    family: 'ball-valve-lever',
    name: 'Ball valve 1/2" DN15 brass, lever handle',
    description: 'Full-bore ball valve, female/female thread, PN 25, DVGW approved.',
    category: '131',
    cents: 1290,
    stock: [27, 15, 8, 350],
    tags: ['ball valve', 'DN15', 'brass'],
    attrs: [
      ['nominal_size', 'Nominal size', 'DN15'],
      ['thread', 'Thread', 'Rp 1/2"'],
      ['pressure_rating', 'Pressure rating', 'PN 25'],
    ],
    datasheet: true,
  },
  {
    article: '10004018',
    family: 'ball-valve-butterfly',
    name: 'Ball valve 3/4" DN20 brass, butterfly handle',
    description: 'Full-bore ball valve, female/female thread, PN 25, red butterfly handle.',
    category: '131',
    cents: 1690,
    stock: [9, 0, 14, 210],
    tags: ['ball valve', 'DN20', 'brass'],
    attrs: [
      ['nominal_size', 'Nominal size', 'DN20'],
      ['thread', 'Thread', 'Rp 3/4"'],
      ['pressure_rating', 'Pressure rating', 'PN 25'],
    ],
  },
  {
    article: '10004025',
    family: 'trv-body',
    name: 'Thermostatic radiator valve body DN15, angle',
    description: 'Pre-settable valve body M30 x 1.5 for thermostatic heads, angle pattern.',
    category: '132',
    cents: 1890,
    stock: [12, 6, 0, 180],
    tags: ['radiator', 'thermostatic', 'DN15'],
    attrs: [
      ['nominal_size', 'Nominal size', 'DN15'],
      ['connection', 'Head connection', 'M30 x 1.5'],
    ],
    images: 0,
  },
  // Electrical
  {
    article: '20001010',
    family: 'nym-j-cable',
    name: 'Cable NYM-J 3x1.5 mm², 50 m ring',
    description: 'PVC-sheathed installation cable 300/500 V for dry and damp rooms.',
    category: '211',
    cents: 4990,
    unit: 'ring',
    copper: [85000, 690],
    stock: [34, 21, 16, 500],
    tags: ['NYM-J', '3x1.5', 'installation cable'],
    attrs: [
      ['cores', 'Cores x cross-section', '3 x 1.5 mm²'],
      ['length', 'Length', '50 m'],
      ['voltage', 'Rated voltage', '300/500 V'],
      ['copper_weight', 'Copper weight', '21.6 kg/km'],
    ],
    datasheet: true,
  },
  {
    article: '20001027',
    family: 'nym-j-cable',
    name: 'Cable NYM-J 3x2.5 mm², 50 m ring',
    description: 'PVC-sheathed installation cable 300/500 V for dry and damp rooms.',
    category: '211',
    cents: 7490,
    unit: 'ring',
    copper: [85000, 1150],
    stock: [15, 8, 0, 320],
    tags: ['NYM-J', '3x2.5', 'installation cable'],
    attrs: [
      ['cores', 'Cores x cross-section', '3 x 2.5 mm²'],
      ['length', 'Length', '50 m'],
      ['voltage', 'Rated voltage', '300/500 V'],
    ],
  },
  {
    article: '20001034',
    family: 'nym-j-cable',
    name: 'Cable NYM-J 5x2.5 mm², 50 m ring',
    description: 'PVC-sheathed installation cable 300/500 V, five cores; price on request.',
    category: '211',
    cents: 12990,
    unit: 'ring',
    copper: [85000, 1910],
    ask: true,
    stock: [4, null, 2, 80],
    tags: ['NYM-J', '5x2.5', 'installation cable'],
    attrs: [
      ['cores', 'Cores x cross-section', '5 x 2.5 mm²'],
      ['length', 'Length', '50 m'],
    ],
  },
  {
    article: '20002015',
    family: 'h05vv-f-cable',
    name: 'Flexible cable H05VV-F 3G1.5 mm², 25 m',
    description:
      'PVC flexible cable for household appliances; discontinued, sold while stocks last.',
    category: '212',
    cents: 2990,
    discontinued: true,
    stock: [2, 0, 0, 0],
    tags: ['H05VV-F', 'flexible'],
    attrs: [
      ['cores', 'Cores x cross-section', '3G1.5 mm²'],
      ['length', 'Length', '25 m'],
    ],
    images: 1,
  },
  {
    article: '20003012',
    family: 'schuko-socket',
    name: 'Flush-mounted socket outlet Schuko, white',
    description: 'Socket outlet with earthing contact, 16 A 250 V, screw terminals, pure white.',
    category: '221',
    cents: 590,
    stock: [120, 85, 40, 2000],
    tags: ['socket', 'Schuko', 'white'],
    attrs: [
      ['rated_current', 'Rated current', '16 A'],
      ['colour', 'Colour', 'Pure white'],
    ],
  },
  {
    article: '20003029',
    family: 'rocker-switch',
    name: 'Rocker switch on/off, flush-mounted, white',
    description: 'Single-pole rocker switch 10 AX 250 V, with rocker and frame.',
    category: '221',
    cents: 490,
    campaign: 390,
    stock: [95, 60, 33, 1500],
    tags: ['switch', 'white'],
    attrs: [
      ['rated_current', 'Rated current', '10 AX'],
      ['colour', 'Colour', 'Pure white'],
    ],
  },
  {
    article: '20003036',
    family: 'junction-box',
    name: 'Junction box IP55 100x100 mm, grey',
    description: 'Surface-mounted junction box with 7 grommet entries, halogen-free.',
    category: '222',
    cents: 390,
    multiple: 10,
    stock: [70, 10, 5, 800],
    tags: ['junction box', 'IP55'],
    attrs: [
      ['protection', 'Degree of protection', 'IP55'],
      ['dimensions', 'Dimensions', '100 x 100 x 50 mm'],
    ],
    images: 1,
  },
  {
    article: '20004013',
    family: 'mcb-1p',
    name: 'Circuit breaker B16 1-pole 6 kA',
    description: 'Miniature circuit breaker, characteristic B, 16 A, breaking capacity 6 kA.',
    category: '231',
    cents: 490,
    stock: [60, 45, 25, 1100],
    tags: ['MCB', 'B16'],
    attrs: [
      ['characteristic', 'Tripping characteristic', 'B'],
      ['rated_current', 'Rated current', '16 A'],
      ['poles', 'Poles', '1'],
    ],
    datasheet: true,
  },
  {
    article: '20004020',
    family: 'mcb-3p',
    name: 'Circuit breaker C32 3-pole 6 kA',
    description: 'Miniature circuit breaker, characteristic C, 32 A, breaking capacity 6 kA.',
    category: '231',
    cents: 2490,
    stock: [8, 3, 0, 140],
    tags: ['MCB', 'C32'],
    attrs: [
      ['characteristic', 'Tripping characteristic', 'C'],
      ['rated_current', 'Rated current', '32 A'],
      ['poles', 'Poles', '3'],
    ],
  },
  {
    article: '20004037',
    family: 'rcd-4p',
    name: 'RCD 40 A 30 mA 4-pole type A',
    description: 'Residual current device, type A, 40 A, 30 mA rated residual current.',
    category: '232',
    cents: 3990,
    stock: [14, 9, 6, 260],
    tags: ['RCD', '30 mA', 'type A'],
    attrs: [
      ['rated_current', 'Rated current', '40 A'],
      ['residual_current', 'Rated residual current', '30 mA'],
      ['poles', 'Poles', '4'],
    ],
    datasheet: true,
  },
  // Fasteners & tools
  {
    article: '30001018',
    family: 'hex-bolt-din-933',
    name: 'Hex bolt M8x40 DIN 933 zinc-plated, 100 pcs',
    description: 'Hexagon head bolt, fully threaded, property class 8.8, box of 100.',
    category: '311',
    cents: 890,
    unit: 'box',
    stock: [48, 30, 12, 900],
    tags: ['hex bolt', 'M8', 'DIN 933'],
    attrs: [
      ['thread', 'Thread', 'M8'],
      ['length', 'Length', '40 mm'],
      ['property_class', 'Property class', '8.8'],
      ['pack_size', 'Pack size', '100 pcs'],
    ],
  },
  {
    article: '30001025',
    family: 'hex-bolt-din-933',
    name: 'Hex bolt M10x60 DIN 933 zinc-plated, 50 pcs',
    description: 'Hexagon head bolt, fully threaded, property class 8.8, box of 50.',
    category: '311',
    cents: 1190,
    unit: 'box',
    stock: [22, 5, 0, 600],
    tags: ['hex bolt', 'M10', 'DIN 933'],
    attrs: [
      ['thread', 'Thread', 'M10'],
      ['length', 'Length', '60 mm'],
      ['property_class', 'Property class', '8.8'],
      ['pack_size', 'Pack size', '50 pcs'],
    ],
  },
  {
    article: '30001032',
    family: 'wood-screw-torx',
    name: 'Wood screw 5x60 mm Torx, 200 pcs',
    description: 'Chipboard screw, countersunk head, T25 drive, partial thread, yellow zinc.',
    category: '311',
    cents: 1490,
    unit: 'box',
    stock: [36, 28, 19, 750],
    tags: ['wood screw', 'Torx', '5x60'],
    attrs: [
      ['dimensions', 'Dimensions', '5 x 60 mm'],
      ['drive', 'Drive', 'T25'],
      ['pack_size', 'Pack size', '200 pcs'],
    ],
  },
  {
    article: '30002015',
    family: 'nylon-wall-plug',
    name: 'Nylon wall plug 8x40 mm, 100 pcs',
    description: 'Universal nylon plug for concrete, brick and hollow block.',
    category: '312',
    cents: 590,
    unit: 'box',
    stock: [110, 70, 44, 3000],
    tags: ['wall plug', '8 mm'],
    attrs: [
      ['diameter', 'Diameter', '8 mm'],
      ['length', 'Length', '40 mm'],
      ['pack_size', 'Pack size', '100 pcs'],
    ],
    images: 1,
  },
  {
    article: '30002022',
    family: 'concrete-anchor',
    name: 'Concrete anchor M10x90 zinc-plated, 50 pcs',
    description: 'Through bolt for cracked and non-cracked concrete, ETA option 1.',
    category: '312',
    cents: 3490,
    unit: 'box',
    stock: [7, 11, 2, 150],
    tags: ['anchor', 'M10', 'concrete'],
    attrs: [
      ['thread', 'Thread', 'M10'],
      ['length', 'Length', '90 mm'],
      ['pack_size', 'Pack size', '50 pcs'],
    ],
    datasheet: true,
  },
  {
    article: '30003019',
    family: 'water-pump-pliers',
    name: 'Water pump pliers 250 mm',
    description: 'Push-button adjustable water pump pliers, chrome vanadium, 25 positions.',
    category: '321',
    cents: 1990,
    campaign: 1690,
    stock: [16, 12, 10, 220],
    tags: ['pliers', '250 mm'],
    attrs: [
      ['length', 'Length', '250 mm'],
      ['capacity', 'Gripping capacity', '46 mm'],
    ],
  },
  {
    article: '30003026',
    family: 'combination-pliers',
    name: 'Combination pliers 180 mm VDE insulated',
    description: 'Insulated combination pliers tested to 10,000 V, for work up to 1,000 V AC.',
    category: '321',
    cents: 2490,
    stock: [10, 7, 4, 130],
    tags: ['pliers', 'VDE', '1000 V'],
    attrs: [
      ['length', 'Length', '180 mm'],
      ['insulation', 'Insulation', 'VDE 1000 V'],
    ],
  },
  {
    article: '30003033',
    family: 'pipe-cutter',
    name: 'Pipe cutter 3-35 mm for copper pipe',
    description: 'Telescopic pipe cutter with spare wheel, for copper and thin-walled steel pipe.',
    category: '321',
    cents: 2290,
    stock: [5, 3, 0, 70],
    tags: ['pipe cutter', 'copper'],
    attrs: [['capacity', 'Cutting capacity', '3-35 mm']],
    images: 1,
  },
  {
    article: '30004012',
    family: 'vde-screwdriver-set',
    name: 'Screwdriver set VDE 6 pcs slotted/PH',
    description: 'Insulated screwdriver set, 3 slotted and 3 Phillips, in a wall holder.',
    category: '322',
    cents: 2990,
    stock: [13, 0, 5, 90],
    tags: ['screwdriver', 'VDE', 'set'],
    attrs: [
      ['pieces', 'Pieces', '6'],
      ['insulation', 'Insulation', 'VDE 1000 V'],
    ],
  },
  {
    article: '30005019',
    family: 'cordless-drill-18v',
    name: 'Cordless drill driver 18 V, 2 x 2.0 Ah, case',
    description: 'Brushless 2-speed drill driver, 60 Nm, with two batteries, charger and case.',
    category: '331',
    cents: 18990,
    campaign: 15990,
    lead: [3, 7],
    stock: [4, 2, 0, 35],
    tags: ['cordless', '18 V', 'drill driver'],
    attrs: [
      ['voltage', 'Voltage', '18 V'],
      ['torque', 'Max. torque', '60 Nm'],
      ['battery', 'Batteries', '2 x 2.0 Ah'],
    ],
    images: 3,
    datasheet: true,
  },
  {
    article: '30005026',
    family: 'sds-plus-bit',
    name: 'SDS-plus hammer drill bit 8x160 mm',
    description: '4-cutter carbide hammer drill bit for concrete and masonry.',
    category: '332',
    cents: 390,
    stock: [75, 40, 22, 1400],
    tags: ['SDS-plus', '8 mm', 'concrete'],
    attrs: [
      ['diameter', 'Diameter', '8 mm'],
      ['length', 'Total length', '160 mm'],
    ],
  },
];

const TRADEPOINTS: Record<string, string> = {
  '1': 'HVAC',
  '2': 'ELECTRICAL',
  '3': 'TOOLS-FIXINGS',
};

function leafCategories(nodes: Category[], into = new Map<string, Category>()) {
  for (const node of nodes) {
    if (node.children) leafCategories(node.children, into);
    else into.set(node.id, node);
  }
  return into;
}

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/²/g, '2')
    .replace(/°/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function buildProduct(row: Row, leaves: Map<string, Category>): SimProduct {
  const leaf = leaves.get(row.category)!;
  const base = `https://images.example.com/products/${row.article}`;
  const imageTypes = ['main', 'detail', 'application'];
  const product: Product = {
    id: `V${row.article}`,
    product_id: `P${row.article.slice(0, 6)}`,
    article_number: row.article,
    name: row.name,
    description: row.description,
    ean: withCheckDigit(`4${row.article}000`),
    supply_group: `SG-${row.category}`,
    discontinued: row.discontinued ?? false,
    tradepoint: TRADEPOINTS[row.category[0]],
    product_slug: row.family,
    variant_slug: slugify(row.name),
    assortment_ids: row.discontinued ? ['ASSORT-STORE'] : ['ASSORT-STORE', 'ASSORT-WEB'],
    campaign_ids: row.campaign ? ['CMP-2026-SPRING'] : [],
    classifications: [{ id: leaf.id, name: leaf.name, slug: leaf.slug }],
    assets: row.datasheet
      ? [
          {
            asset_url: `https://assets.example.com/datasheets/${row.article}.pdf`,
            asset_type: 'datasheet',
          },
        ]
      : [],
    filter_tags: row.tags,
    images: imageTypes.slice(0, row.images ?? 2).map((type) => ({
      asset_url: `${base}/${type}.jpg`,
      asset_type: type,
    })),
    attributes: row.attrs.map(([name, label, value], i) => ({
      attribute_value: value,
      attribute_name: name,
      attribute_label: label,
      sort: (i + 1) * 10,
    })),
  };
  const stock: Record<string, number> = {};
  LOCATIONS.forEach((location, i) => {
    const quantity = row.stock[i];
    if (quantity !== null) stock[location.location_id] = quantity;
  });
  return {
    product,
    pricing: {
      list_cents: row.cents,
      campaign_cents: row.campaign ?? null,
      unit: row.unit ?? 'piece',
      ask_for_price: row.ask ?? false,
      alloying: row.copper
        ? { price_cents: row.copper[0], unit: '100 kg', amount_cents: row.copper[1] }
        : null,
    },
    order_multiple: row.multiple ?? 1,
    lead_days: row.lead ?? [1, 3],
    stock,
  };
}

const SHIPMENTS: Record<string, Shipment[]> = {
  '+4915112345678': [
    {
      RefNo: 'SO-2026-000087',
      YourRefNo: 'Site Nord, Block B',
      SId: '00340123450000012345',
      SService: 'Parcel',
      SStatusTxt: 'Delivered',
      CSTrURL: 'https://carrier.example.com/track?id=00340123450000012345',
      PortalTrURL: 'https://portal.example.com/tracking/SO-2026-000087',
      SKey: 'SK-7F3A9C21',
      SStatusDTime: '2026-02-24 10:41',
    },
    {
      RefNo: 'SO-2026-000094',
      YourRefNo: 'Hoffmann workshop',
      SId: '00340123450000012352',
      SService: 'Pallet',
      SStatusTxt: 'In transit',
      CSTrURL: null,
      PortalTrURL: 'https://portal.example.com/tracking/SO-2026-000094',
      SKey: 'SK-1B8E4D07',
      SStatusDTime: '2026-02-27 16:05',
    },
    {
      RefNo: 'SO-2026-000099',
      YourRefNo: '',
      SId: '00340123450000012369',
      SService: 'Parcel',
      SStatusTxt: 'Ready for dispatch',
      CSTrURL: 'https://carrier.example.com/track?id=00340123450000012369',
      PortalTrURL: 'https://portal.example.com/tracking/SO-2026-000099',
      SKey: 'SK-C45D2E90',
      SStatusDTime: '2026-03-01 08:15',
    },
  ],
  '+4917098765432': [
    {
      RefNo: 'SO-2026-000091',
      YourRefNo: 'Berger / Schule Ost',
      SId: '00340123450000012376',
      SService: 'Express',
      SStatusTxt: 'Delivered',
      CSTrURL: 'https://carrier.example.com/track?id=00340123450000012376',
      PortalTrURL: 'https://portal.example.com/tracking/SO-2026-000091',
      SKey: 'SK-0A9B3F66',
      SStatusDTime: '2026-02-26 09:30',
    },
  ],
};

const LEAVES = leafCategories(CATEGORIES);

const DEMO: SimulatorData = {
  users: USERS,
  organizations: ORGANIZATIONS,
  locations: LOCATIONS,
  products: Object.fromEntries(ROWS.map((row) => [row.article, buildProduct(row, LEAVES)])),
  categories: CATEGORIES,
  shipments: SHIPMENTS,
};

/** A fresh deep copy of the demo data. */
export function demoData(): SimulatorData {
  return structuredClone(DEMO);
}
