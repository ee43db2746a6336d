// People of the seeded policies (issue 31: the console's search must be as selective as in life):
// surnames spread as people's are, name-based e-mail addresses, partners' booking references.

const list = (names: string) => names.split(',');

export const FIRST_NAMES = list(
  'Ada,Charles,Grace,Alan,Mary,Edsger,Barbara,Donald,Frances,Niklaus,Radia,Ken,Olivia,Jack,Charlotte,Noah,Amelia,William,Isla,Oliver,Mia,Thomas,Ava,James,Sophie,Lucas,Chloe,Henry,Emily,Liam,Ruby,Leo,Zoe,Ethan,Mason,Priya,Wei,Aroha,Tane,Mei,Arjun,Fatima,Mohammed,Sione,Hannah,Daniel,Sarah,Michael,Jessica,David,Emma,Matthew,Lauren,Joshua,Kate,Samuel,Anna,Benjamin,Lucy',
);

/** Common surnames, most common first (drawn with weight 1/√rank: Smith about 1 in 120 people). */
export const SURNAMES = list(
  "Smith,Jones,Williams,Brown,Wilson,Taylor,Nguyen,Johnson,Martin,White,Anderson,Walker,Thompson,Thomas,Lee,Ryan,Harris,Robinson,Kelly,King,Davis,Wright,Evans,Roberts,Green,Hall,Wood,Jackson,Clarke,Patel,Khan,Lewis,James,Phillips,Mitchell,Campbell,Turner,Edwards,Hughes,Moore,Murphy,Cooper,Hill,Ward,Morris,Baker,Young,Collins,Clark,Scott,Tran,Le,Pham,Chen,Wang,Li,Zhang,Singh,Kaur,Sharma,Ngata,Tipene,Te Whata,Henare,Parata,O'Brien,O'Connor,McDonald,MacKenzie,Stewart,Murray,Reid,Ross,Watson,Graham,Bell,Kennedy,Gray,Russell,Ellis,Lovelace,Babbage,Hopper,Turing,Somerville,Dijkstra,Liskov,Knuth,Allen,Wirth,Perlman,Rossi,Müller,García,Silva,Kowalski,Papadopoulos,Haddad,Fonoti,Tuilagi",
);
/** Syllables of the long tail of rarer surnames (most people's surname is not a common one). */
const SURNAME_PARTS = {
  first: list(
    'Ash,Bar,Cal,Dun,El,Fair,Gar,Hol,Ing,Kel,Lang,Mar,Nor,Os,Pen,Quin,Rad,Sel,Thorn,Ul,Van,Wes,Yar,Zel,Brad,Crom,Dal,Fitz,Gil,Hart,Kirk,Lind,Mont,Nash,Pem,Rob,Stan,Tal,Whit,Ald',
  ),
  middle: list(',a,e,i,o,en,er,in,ing,ow,ley,ber,ham,ton,wick,den,ford,wood,by,croft'),
  last: list(',s,son,ton,ley,field,more,ridge,well,stone,ham,er,ington,ey,ett'),
};
const DOMAINS = list('gmail.com,outlook.com,yahoo.com,icloud.com,bigpond.com,hotmail.co.uk,xtra.co.nz,proton.me');
const SURNAME_WEIGHTS = SURNAMES.map((_, rank) => 1 / Math.sqrt(rank + 1));
const SURNAME_WEIGHT_TOTAL = SURNAME_WEIGHTS.reduce((sum, w) => sum + w, 0);
/** Share of people with one of the common surnames (the rest: the long tail, about 12,000 names). */
const COMMON_SHARE = 0.15;

/** A surname as people's are spread: a few common ones, most from a long tail. */
export function drawSurname(rand: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  if (rand() >= COMMON_SHARE)
    return `${pick(SURNAME_PARTS.first)}${pick(SURNAME_PARTS.middle)}${pick(SURNAME_PARTS.last)}`;
  let left = rand() * SURNAME_WEIGHT_TOTAL;
  for (let i = 0; i < SURNAMES.length; i++) {
    left -= SURNAME_WEIGHTS[i]!;
    if (left < 0) return SURNAMES[i]!;
  }
  return SURNAMES[0]!;
}

/** An e-mail address as customers type them: name-based, often with digits, sometimes capitalised. */
export function drawEmail(rand: () => number, firstName: string, surname: string): string {
  const plain = (s: string) => s.normalize('NFD').replace(/[^A-Za-z]/g, '');
  const digits = rand() < 0.6 ? String(Math.floor(rand() * 10_000)) : '';
  const separator = ['.', '_', ''][Math.floor(rand() * 3)]!;
  const local = `${plain(firstName)}${separator}${plain(surname)}${digits}`;
  const domain = DOMAINS[Math.floor(rand() * DOMAINS.length)]!;
  return `${rand() < 0.2 ? local : local.toLowerCase()}@${domain}`;
}

const REFERENCE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** A partner's booking reference (about four policies in five carry one): 8 letters and digits. */
export function drawBookingReference(rand: () => number): string | null {
  if (rand() < 0.2) return null;
  return Array.from({ length: 8 }, () => REFERENCE_LETTERS[Math.floor(rand() * REFERENCE_LETTERS.length)]).join('');
}
