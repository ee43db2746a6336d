import type { ConditionOutcome, TravellerOutcome } from './model.js';
import type { PageLanguage } from './link-service.js';

/** The hosted screening page's words, in each language the screening's questions come in. */
export interface PageWords {
  readonly serviceName: string;
  readonly title: string;
  readonly intro: string;
  readonly whoLegend: string;
  readonly whoTraveller: string;
  readonly whoOther: string;
  readonly whoHint: string;
  readonly person: {
    readonly firstName: string;
    readonly surname: string;
    readonly dateOfBirth: string;
    readonly dateHint: string;
    readonly email: string;
    readonly phone: string;
  };
  readonly staleNotice: string;
  readonly next: string;
  readonly questionsTitle: string;
  readonly chooseAny: string;
  readonly confirmTitle: string;
  readonly confirmText: string;
  readonly complete: string;
  readonly resultTitle: string;
  readonly reference: string;
  readonly outcome: string;
  readonly condition: string;
  readonly medicalPremium: string;
  readonly excess: string;
  readonly noConditions: string;
  readonly signposting: string;
  readonly travellerOutcomes: Readonly<Record<TravellerOutcome, string>>;
  readonly conditionOutcomes: Readonly<Record<ConditionOutcome, string>>;
  readonly back: string;
  readonly leave: string;
  readonly errorSummary: string;
  readonly problems: {
    readonly required: string;
    readonly date: string;
    readonly who: string;
    readonly answer: string;
    readonly oneAnswer: string;
    readonly unknownChoice: string;
    readonly notAsked: string;
  };
  readonly expiredTitle: string;
  readonly expiredText: string;
  readonly notFoundTitle: string;
  readonly notFoundText: string;
  readonly refusedTitle: string;
  readonly refusedText: string;
  readonly closedTitle: string;
}

const en: PageWords = {
  serviceName: 'Travel insurance',
  title: 'Medical screening',
  intro: 'A few questions about existing medical conditions, so that your cover can include them.',
  whoLegend: 'Who is answering?',
  whoTraveller: 'I am the traveller',
  whoOther: 'I answer for the traveller, with their permission',
  whoHint: 'If you answer for the traveller, enter your own details.',
  person: {
    firstName: 'First name',
    surname: 'Surname',
    dateOfBirth: 'Date of birth',
    dateHint: 'For example 1980-04-02 (year-month-day).',
    email: 'E-mail address',
    phone: 'Phone number',
  },
  staleNotice: 'The trip changed since the last screening: please answer again.',
  next: 'Continue',
  questionsTitle: 'Your health',
  chooseAny: 'Choose every one that applies.',
  confirmTitle: 'Ready to finish',
  confirmText: 'Every question is answered. Finish to see what your cover includes.',
  complete: 'Finish the screening',
  resultTitle: 'Your screening result',
  reference: 'Reference',
  outcome: 'Result',
  condition: 'Condition',
  medicalPremium: 'Medical premium',
  excess: 'Extra excess',
  noConditions: 'No medical condition needs screening.',
  signposting:
    'Some of your conditions are not covered or cost more. A medical cover directory can help you find other insurers: see moneyhelper.org.uk/travel-insurance-directory.',
  travellerOutcomes: {
    NO_SCREENING_NEEDED: 'No screening needed: standard cover.',
    COVERED: 'Your conditions are covered.',
    COVERED_WITH_EXCLUSIONS: 'You are covered, except for the conditions marked not covered.',
    DECLINED: 'We cannot offer cover to this traveller.',
    REFERRED: 'An underwriter must look at your answers before the policy can be bought.',
  },
  conditionOutcomes: {
    AUTO_COVERED: 'Covered at no extra cost',
    COVERED: 'Covered',
    EXCLUDED: 'Not covered (excluded)',
    DECLINED: 'Not covered (declined)',
    REFERRED: 'Waiting for an underwriter',
  },
  back: 'Return to your quote',
  leave: 'Leave and return to your quote',
  errorSummary: 'There is a problem',
  problems: {
    required: 'Enter this.',
    date: 'Enter a date as year-month-day, for example 1980-04-02.',
    who: 'Choose who is answering.',
    answer: 'Choose an answer.',
    oneAnswer: 'Choose only one answer.',
    unknownChoice: 'Choose one of the answers shown.',
    notAsked: 'This question was not asked: answer the questions shown.',
  },
  expiredTitle: 'This link has expired',
  expiredText: 'Ask for a new link where you got this one.',
  notFoundTitle: 'Page not found',
  notFoundText: 'This link opens nothing. Check that you copied it whole.',
  refusedTitle: 'This form has expired',
  refusedText: 'Nothing was saved. Open the page again and answer once more.',
  closedTitle: 'The screening cannot be changed',
};

const es: PageWords = {
  serviceName: 'Seguro de viaje',
  title: 'Evaluación médica',
  intro: 'Unas preguntas sobre enfermedades previas, para que su cobertura pueda incluirlas.',
  whoLegend: '¿Quién responde?',
  whoTraveller: 'Soy el viajero',
  whoOther: 'Respondo por el viajero, con su permiso',
  whoHint: 'Si responde por el viajero, indique sus propios datos.',
  person: {
    firstName: 'Nombre',
    surname: 'Apellidos',
    dateOfBirth: 'Fecha de nacimiento',
    dateHint: 'Por ejemplo 1980-04-02 (año-mes-día).',
    email: 'Correo electrónico',
    phone: 'Teléfono',
  },
  staleNotice: 'El viaje cambió desde la última evaluación: responda de nuevo.',
  next: 'Continuar',
  questionsTitle: 'Su salud',
  chooseAny: 'Elija todas las que correspondan.',
  confirmTitle: 'Listo para terminar',
  confirmText: 'Todas las preguntas tienen respuesta. Termine para ver qué incluye su cobertura.',
  complete: 'Terminar la evaluación',
  resultTitle: 'Resultado de su evaluación',
  reference: 'Referencia',
  outcome: 'Resultado',
  condition: 'Enfermedad',
  medicalPremium: 'Prima médica',
  excess: 'Franquicia adicional',
  noConditions: 'Ninguna enfermedad requiere evaluación.',
  signposting:
    'Algunas de sus enfermedades no están cubiertas o cuestan más. Un directorio de seguros médicos puede ayudarle: moneyhelper.org.uk/travel-insurance-directory.',
  travellerOutcomes: {
    NO_SCREENING_NEEDED: 'No hace falta evaluación: cobertura estándar.',
    COVERED: 'Sus enfermedades están cubiertas.',
    COVERED_WITH_EXCLUSIONS: 'Está cubierto, salvo las enfermedades marcadas como no cubiertas.',
    DECLINED: 'No podemos ofrecer cobertura a este viajero.',
    REFERRED: 'Un suscriptor debe revisar sus respuestas antes de poder comprar la póliza.',
  },
  conditionOutcomes: {
    AUTO_COVERED: 'Cubierta sin coste adicional',
    COVERED: 'Cubierta',
    EXCLUDED: 'No cubierta (excluida)',
    DECLINED: 'No cubierta (rechazada)',
    REFERRED: 'Pendiente de un suscriptor',
  },
  back: 'Volver a su presupuesto',
  leave: 'Salir y volver a su presupuesto',
  errorSummary: 'Hay un problema',
  problems: {
    required: 'Complete este dato.',
    date: 'Indique una fecha como año-mes-día, por ejemplo 1980-04-02.',
    who: 'Elija quién responde.',
    answer: 'Elija una respuesta.',
    oneAnswer: 'Elija solo una respuesta.',
    unknownChoice: 'Elija una de las respuestas mostradas.',
    notAsked: 'Esta pregunta no se hizo: responda las preguntas mostradas.',
  },
  expiredTitle: 'Este enlace ha caducado',
  expiredText: 'Pida un enlace nuevo donde obtuvo este.',
  notFoundTitle: 'Página no encontrada',
  notFoundText: 'Este enlace no abre nada. Compruebe que lo copió entero.',
  refusedTitle: 'Este formulario ha caducado',
  refusedText: 'No se guardó nada. Abra la página de nuevo y responda otra vez.',
  closedTitle: 'La evaluación no se puede cambiar',
};

export const PAGE_WORDS: Readonly<Record<PageLanguage, PageWords>> = { en, es };
