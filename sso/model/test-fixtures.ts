import type { ClientRegistration, UserRecord } from './schemas.ts';

/** Small registration data for unit tests (the example config has the same shape). */
export const fixtureClients: ClientRegistration[] = [
  { appId: 'app-alpha', clientId: 'client-alpha', clientSecret: 'alpha-secret-7f3k', redirectUrl: 'https://alpha.example/auth/callback', logoutUrl: 'https://alpha.example/bye' },
  { appId: 'app-beta', clientId: 'client-beta', clientSecret: 'beta-secret-q9w2', redirectUrl: 'https://beta.example:8443/cb?tenant=1', logoutUrl: 'https://beta.example:8443/logged-out' },
];

const profileFor = (n: number) => ({
  userId: `u-000${n}`,
  type: 'staff',
  title: 'Dr.',
  titleEng: 'Dr.',
  firstnameEng: `First${n}`,
  lastnameEng: `Last${n}`,
  facultyName: 'Faculty of Engineering',
  positionName: 'Lecturer',
  positionTypeName: 'Academic',
  levelId: '3',
  levelName: 'Senior',
  gender: n % 2 ? 'F' : 'M',
  workline: 'Teaching',
  phoneNumber: `+66-2-555-010${n}`,
  personStatus: 'active',
  lastVerify: '2024-05-01T08:00:00Z',
});

export const fixtureUsers: UserRecord[] = [1, 2].map((n) => ({
  username: `user${n}`,
  password: `pass-word-${n}`,
  role: n === 1 ? 'staff' : 'student',
  email: `user${n}@uni.example`,
  immutableId: `imm-${n}a9c`,
  citizenId: `110170000000${n}`,
  firstName: `Somchai${n}`,
  lastName: `Jaidee${n}`,
  employeeId: `E0000${n}`,
  profile: profileFor(n),
}));
