// Second factors on the web (docs/PRODUCT.md#second-factors): Profile → Sign-in security (authenticator app,
// recovery codes), and the admin's policy (who must have a second factor). The login page's code step is the auth
// feature's (`features/auth/components/second-factor-step.tsx`).
export { SignInSecurity } from './components/sign-in-security';
export { SecondFactorPolicy } from './components/second-factor-policy';
