import { FingerprintGenerator } from 'fingerprint-generator';
let t = performance.now();
const g = new FingerprintGenerator({ browsers: [{name:'chrome'}], operatingSystems: ['linux'], devices: ['desktop'], locales: ['en-US'] });
console.log('ctor', performance.now()-t);
t = performance.now();
const f = g.getFingerprint();
console.log('gen', performance.now()-t);
console.log(JSON.stringify(f, null, 1).slice(0, 6000));
