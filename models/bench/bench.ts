/**
 * `npm run bench -w models`: how long the models take where the explorer needs them fast.
 * Printed figures (medians over several rounds), with the targets they are compared against.
 */
import { runMnemosyneBench } from './mnemosyne';
import { runMonkeyBench } from './monkey';

console.log('models: Monkey (targets: holisticDesign < 1 ms, a 200-point curve < 16 ms)');
for (const line of runMonkeyBench()) console.log(`  ${line}`);
console.log('models: Mnemosyne sort-and-search against gradient descent on 1,000 files');
for (const line of runMnemosyneBench()) console.log(`  ${line}`);
