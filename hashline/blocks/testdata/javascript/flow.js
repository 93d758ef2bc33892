/**
 * @flow strict
 */

import type {Node} from 'react';

type Props = {
  name: string,
  count: number,
};

export function render(props: Props): Node {
  return props.name;
}
