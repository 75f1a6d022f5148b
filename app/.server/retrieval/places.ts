// Places customers name and the regions a business's knowledge writes instead: "I'm in Belfast"
// against "we ship to Northern Ireland", "can I drive into Montana" against "travel to the United
// States", "delivery to Pittsburgh?" against "we deliver across Pennsylvania". Each place is a
// broader-term entry of the lexicon (lexicon.ts): its region and country count as weaker evidence
// than the word itself, never as the same thing. Only names that are rarely ordinary words are
// listed (no state abbreviations: "in", "or", "me", "ok" are Indiana, Oregon, Maine, Oklahoma).
// General geography, not any knowledge base's own terms (ADR 061).

/** A country's names and its regions (states, provinces, nations), each with its best-known cities. */
type Country = { names: string[]; regions: Record<string, string[]> };

const US: Country = {
  names: ["usa", "united states"],
  regions: {
    alabama: ["montgomery", "huntsville"],
    alaska: ["anchorage", "fairbanks", "juneau"],
    arizona: ["phoenix", "tucson", "scottsdale", "tempe", "flagstaff"],
    arkansas: ["little rock", "fayetteville"],
    california: ["los angeles", "san francisco", "san diego", "san jose", "sacramento", "oakland", "fresno", "long beach", "palo alto", "santa monica"],
    colorado: ["denver", "colorado springs", "fort collins"],
    connecticut: ["hartford", "new haven", "stamford"],
    florida: ["miami", "orlando", "tampa", "jacksonville", "tallahassee", "fort lauderdale"],
    georgia: ["atlanta"],
    hawaii: ["honolulu", "maui", "oahu"],
    idaho: ["boise"],
    illinois: ["chicago", "naperville"],
    indiana: ["indianapolis", "fort wayne"],
    iowa: ["des moines", "cedar rapids"],
    kansas: ["wichita", "topeka", "overland park"],
    kentucky: ["louisville", "lexington"],
    louisiana: ["new orleans", "baton rouge", "shreveport"],
    maryland: ["baltimore", "annapolis"],
    massachusetts: ["boston"],
    michigan: ["detroit", "grand rapids", "ann arbor", "lansing"],
    minnesota: ["minneapolis", "st paul", "saint paul", "duluth"],
    mississippi: ["biloxi"],
    missouri: ["st louis", "saint louis", "kansas city"],
    montana: ["missoula", "bozeman"],
    nebraska: ["omaha"],
    nevada: ["las vegas", "reno"],
    "new jersey": ["newark", "jersey city", "trenton", "hoboken"],
    "new mexico": ["albuquerque", "santa fe"],
    "new york": ["new york city", "nyc", "manhattan", "brooklyn", "bronx", "albany"],
    "north carolina": ["raleigh", "asheville", "greensboro"],
    "north dakota": ["fargo", "bismarck"],
    ohio: ["columbus", "cleveland", "cincinnati", "akron", "dayton"],
    oklahoma: ["oklahoma city", "tulsa"],
    oregon: ["portland"],
    pennsylvania: ["philadelphia", "philly", "pittsburgh", "harrisburg", "allentown"],
    "rhode island": [],
    "south carolina": [],
    "south dakota": ["sioux falls", "rapid city"],
    tennessee: ["nashville", "memphis", "knoxville", "chattanooga"],
    texas: ["houston", "dallas", "austin", "san antonio", "fort worth", "el paso", "round rock", "plano"],
    utah: ["salt lake city", "provo"],
    vermont: [],
    virginia: ["virginia beach"],
    washington: ["seattle", "spokane", "tacoma", "bellevue"],
    "west virginia": [],
    wisconsin: ["milwaukee"],
    wyoming: ["cheyenne", "jackson hole"],
    "district of columbia": ["washington dc"],
  },
};

const CANADA: Country = {
  names: ["canada"],
  regions: {
    alberta: ["calgary", "edmonton", "banff", "canmore", "lake louise", "red deer", "lethbridge"],
    "british columbia": ["vancouver", "kelowna", "whistler", "kamloops", "nanaimo"],
    saskatchewan: ["saskatoon"],
    manitoba: ["winnipeg"],
    ontario: ["toronto", "ottawa", "mississauga", "niagara falls"],
    quebec: ["montreal", "quebec city", "gatineau"],
    "nova scotia": [],
    "new brunswick": ["fredericton", "moncton"],
    newfoundland: [],
    "prince edward island": ["charlottetown"],
    yukon: ["whitehorse"],
  },
};

const AUSTRALIA: Country = {
  names: ["australia"],
  regions: {
    queensland: ["brisbane", "gold coast", "sunshine coast", "cairns", "townsville", "toowoomba"],
    "new south wales": ["sydney", "wollongong", "byron bay"],
    victoria: ["melbourne", "geelong", "ballarat", "bendigo"],
    "south australia": ["adelaide"],
    "western australia": ["perth", "fremantle"],
    tasmania: ["hobart", "launceston"],
    "northern territory": ["alice springs"],
    "australian capital territory": ["canberra"],
  },
};

const NEW_ZEALAND: Country = {
  names: ["new zealand", "nz"],
  regions: { "north island": ["auckland", "wellington", "tauranga", "napier"], "south island": ["christchurch", "dunedin", "queenstown"] },
};

const UK: Country = {
  names: ["uk", "united kingdom", "britain"],
  regions: {
    england: [
      "london",
      "manchester",
      "birmingham",
      "liverpool",
      "leeds",
      "bristol",
      "sheffield",
      "newcastle",
      "nottingham",
      "leicester",
      "brighton",
      "oxford",
      "york",
      "southampton",
    ],
    scotland: ["glasgow", "edinburgh", "aberdeen", "dundee", "inverness", "stirling", "highlands", "fort william", "aviemore"],
    wales: ["cardiff", "swansea"],
    "northern ireland": ["belfast", "derry", "londonderry"],
  },
};

// Irish price lists write "Rest of Leinster", "Rest of the Republic": each county and its biggest
// towns count toward its province and the country (Clare, Kerry, Down and Derry-as-a-county are
// left out: first names or ordinary words, or listed under the UK).
const IRELAND: Country = {
  names: ["ireland", "republic"],
  regions: {
    leinster: [
      "dublin",
      "kildare",
      "naas",
      "newbridge",
      "maynooth",
      "wicklow",
      "bray",
      "wexford",
      "kilkenny",
      "carlow",
      "laois",
      "portlaoise",
      "offaly",
      "tullamore",
      "westmeath",
      "athlone",
      "mullingar",
      "longford",
      "louth",
      "drogheda",
      "dundalk",
      "meath",
      "navan",
    ],
    munster: ["cork", "limerick", "waterford", "killarney", "tralee", "tipperary", "ennis"],
    connacht: ["galway", "sligo", "mayo", "castlebar", "westport", "roscommon", "leitrim"],
    ulster: ["donegal", "letterkenny", "cavan", "monaghan"],
  },
};

const COUNTRIES = [US, CANADA, AUSTRALIA, NEW_ZEALAND, UK, IRELAND];

/**
 * Broader-term groups for the lexicon: each region → its country; each city → its region and country.
 * A name listed twice (a region of one country that is a city of another) is left out: which place
 * the customer means is not known.
 */
function placeGroups(): [string[], string[]][] {
  const targets = new Map<string, string[]>();
  const count = new Map<string, number>();
  const put = (from: string, to: string[]) => {
    count.set(from, (count.get(from) ?? 0) + 1);
    targets.set(from, to);
  };
  for (const country of COUNTRIES)
    for (const [region, cities] of Object.entries(country.regions)) {
      put(region, country.names);
      for (const city of cities) put(city, [region, ...country.names]);
    }
  return [...targets].filter(([from]) => count.get(from) === 1).map(([from, to]) => [[from], to]);
}

/** Built once per isolate: the lexicon's groups and isPlaceName read the same list. */
export const PLACE_GROUPS = placeGroups();
const PLACE_NAMES = new Set(PLACE_GROUPS.map(([[from]]) => from));
/** Whether the words name a place of this list (a city, region or nation): "cardiff", "grand rapids". */
export const isPlaceName = (words: string) => PLACE_NAMES.has(words);
